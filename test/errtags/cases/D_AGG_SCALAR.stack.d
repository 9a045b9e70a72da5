/* avg() of a stack. */
BEGIN
{
	@a = avg(stack());
}
