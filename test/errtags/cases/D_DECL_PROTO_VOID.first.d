/* void followed by another parameter. */
int f(void, char *);
BEGIN
{
	exit(0);
}
