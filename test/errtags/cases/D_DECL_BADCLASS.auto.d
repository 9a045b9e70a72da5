/* A variable declared auto. */
auto int x;
BEGIN
{
	exit(0);
}
