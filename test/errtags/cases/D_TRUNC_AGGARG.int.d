/* trunc() of an integer. */
BEGIN
{
	trunc(1);
}
