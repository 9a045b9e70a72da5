/* A pointer to another type than the parameter's. */
BEGIN
{
	trace(d_path(curthread));
}
