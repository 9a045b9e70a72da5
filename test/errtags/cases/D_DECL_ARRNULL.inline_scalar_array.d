/* An inline of a scalar array type. */
inline int a[2] = 1;
BEGIN
{
	exit(0);
}
