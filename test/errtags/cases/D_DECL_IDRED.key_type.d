/* An associative array redeclared with another key type. */
int x[int, string];
int x[int, int];
BEGIN
{
	exit(0);
}
