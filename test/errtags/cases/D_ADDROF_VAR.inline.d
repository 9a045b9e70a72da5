/* Unary & on an inline that is no constant. */
inline int x = pid;
BEGIN
{
	y = &x;
}
