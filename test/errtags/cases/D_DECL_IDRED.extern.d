/* An extern symbol declared again with another type. */
extern int x;
extern long x;
BEGIN
{
	exit(0);
}
