/* An associative array with a variable-length key list. */
int a[int, ...];
BEGIN
{
	exit(0);
}
