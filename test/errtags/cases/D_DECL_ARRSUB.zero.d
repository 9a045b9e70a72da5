/* An array of zero elements. */
int a[0];
BEGIN
{
	exit(0);
}
