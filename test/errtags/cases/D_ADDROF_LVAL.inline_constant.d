/* Unary & on an inline constant. */
inline int x = 3;
BEGIN
{
	y = &x;
}
