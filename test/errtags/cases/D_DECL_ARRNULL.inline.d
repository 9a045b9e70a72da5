/* An inline array without key types. */
inline int a[] = 1;
BEGIN
{
	exit(0);
}
