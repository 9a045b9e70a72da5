/* An array dimension that is a variable. */
int n;
int a[n];
BEGIN
{
	exit(0);
}
