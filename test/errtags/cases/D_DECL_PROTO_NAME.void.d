/* A void parameter with a name. */
int f(void v);
BEGIN
{
	exit(0);
}
