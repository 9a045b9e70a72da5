/* A new variable assigned a void expression. */
BEGIN
{
	x = trace(1);
}
