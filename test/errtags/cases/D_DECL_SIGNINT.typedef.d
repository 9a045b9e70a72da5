/* unsigned with a typedef name. */
typedef int foo_t;
unsigned foo_t x;
BEGIN
{
	exit(0);
}
