/* An associative array used with another number of keys than at first. */
BEGIN
{
	a[1] = 1;
	a[1, 2] = 2;
}
