/* A typedef declared again (with the same type). */
typedef int foo_t;
typedef int foo_t;
BEGIN
{
	exit(0);
}
