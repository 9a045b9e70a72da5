/* An associative array used without keys. */
BEGIN
{
	a[1] = 2;
	x = a;
}
