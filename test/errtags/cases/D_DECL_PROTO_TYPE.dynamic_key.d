/* An associative array keyed by an associative array. */
int a[int b[int]];
BEGIN
{
	exit(0);
}
