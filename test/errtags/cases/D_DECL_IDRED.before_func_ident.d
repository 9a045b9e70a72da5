/* A redeclared variable is found as parsed: before a later call of a non-function. */
int total;
string total;

BEGIN
/(1 > 0) (2 > 1)/
{
	exit(0);
}
