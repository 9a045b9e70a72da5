/* A tracing function's result used as a value (assigned). */
BEGIN
{
	x = stack();
}
