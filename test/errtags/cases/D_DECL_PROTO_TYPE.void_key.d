/* An associative array keyed by void. */
int a[int, void];
BEGIN
{
	exit(0);
}
