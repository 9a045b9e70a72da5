/* A global redeclared with another type. */
int x;
long x;
BEGIN
{
	exit(0);
}
