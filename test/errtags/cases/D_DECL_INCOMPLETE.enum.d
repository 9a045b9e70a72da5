/* A variable of an enum that is never defined. */
enum nosuch x;
BEGIN
{
	exit(0);
}
