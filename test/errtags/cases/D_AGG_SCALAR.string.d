/* sum() of a string. */
BEGIN
{
	@a = sum("x");
}
