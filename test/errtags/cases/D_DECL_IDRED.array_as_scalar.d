/* An associative array redeclared as a scalar. */
int x[string];
int x;
BEGIN
{
	exit(0);
}
