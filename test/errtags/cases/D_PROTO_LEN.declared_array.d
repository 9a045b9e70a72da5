/* A declared associative array used with too few keys. */
int a[int, string];
BEGIN
{
	x = a[1];
}
