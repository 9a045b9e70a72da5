/* An inline named like a declared variable. */
int x;
inline int x = 1;
BEGIN
{
	exit(0);
}
