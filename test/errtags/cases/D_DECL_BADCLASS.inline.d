/* An inline with a storage class. */
inline static int x = 1;
BEGIN
{
	exit(0);
}
