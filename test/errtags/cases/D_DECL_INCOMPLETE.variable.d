/* A variable of a struct that is only declared. */
struct foo;
struct foo x;
BEGIN
{
	exit(0);
}
