/* A scalar redeclared as an associative array. */
int x;
int x[int];
BEGIN
{
	exit(0);
}
