/* An associative array redeclared with another value type. */
int x[int];
string x[int];
BEGIN
{
	exit(0);
}
