/* A variable named like a D typedef. */
typedef int foo_t;
int foo_t;
BEGIN
{
	exit(0);
}
