/* Unary & on a D variable. */
BEGIN
{
	x = 1;
	y = &x;
}
