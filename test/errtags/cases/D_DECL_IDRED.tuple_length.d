/* An associative array redeclared with another number of keys. */
int x[int];
int x[int, int];
BEGIN
{
	exit(0);
}
