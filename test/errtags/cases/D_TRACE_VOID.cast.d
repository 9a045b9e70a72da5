/* trace() of a cast to void. */
BEGIN
{
	trace((void)1);
}
