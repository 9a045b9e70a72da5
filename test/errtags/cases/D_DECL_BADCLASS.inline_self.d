/* An inline declared self. */
inline self int x = 1;
BEGIN
{
	exit(0);
}
