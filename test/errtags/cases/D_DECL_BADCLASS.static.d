/* A variable declared static. */
static int x;
BEGIN
{
	exit(0);
}
