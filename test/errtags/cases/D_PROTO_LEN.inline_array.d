/* An inline array used with another number of keys than it declares. */
inline int a[int i] = i;
BEGIN
{
	x = a[1, 2];
}
