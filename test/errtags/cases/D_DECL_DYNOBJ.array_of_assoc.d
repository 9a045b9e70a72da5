/* An array of associative arrays. */
int a[4][int];
BEGIN
{
	exit(0);
}
