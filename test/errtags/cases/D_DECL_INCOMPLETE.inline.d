/* An inline of an undefined struct type. */
inline struct foo x = 0;
BEGIN
{
	exit(0);
}
