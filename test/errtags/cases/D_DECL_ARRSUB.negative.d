/* An array of a negative number of elements. */
int a[2 - 3];
BEGIN
{
	exit(0);
}
