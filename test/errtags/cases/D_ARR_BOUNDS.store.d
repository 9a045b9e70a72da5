/* A constant index past the end of a declared array. */
int a[4];
BEGIN
{
	a[4] = 1;
}
