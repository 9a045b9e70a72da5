/* A function parameter declared self. */
int f(self int x);
BEGIN
{
	exit(0);
}
