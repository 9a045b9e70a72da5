/* A typedef named like a global variable. */
int foo;
typedef int foo;
BEGIN
{
	exit(0);
}
