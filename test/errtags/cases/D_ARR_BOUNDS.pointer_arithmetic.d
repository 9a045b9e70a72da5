/* An array plus a constant past its end. */
char a[8];
BEGIN
{
	p = a + 9;
}
