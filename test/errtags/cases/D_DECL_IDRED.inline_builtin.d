/* An inline named like a built-in variable. */
inline int pid = 1;
BEGIN
{
	exit(0);
}
