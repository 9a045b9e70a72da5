/* Two parameters of one prototype with one name. */
int f(int a, char *b, long a);
BEGIN
{
	exit(0);
}
