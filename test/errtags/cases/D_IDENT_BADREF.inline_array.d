/* An inline array used without keys. */
inline int a[int i] = i * 2;
BEGIN
{
	x = a;
}
