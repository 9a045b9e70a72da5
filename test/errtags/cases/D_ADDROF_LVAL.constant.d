/* Unary & on a constant. */
BEGIN
{
	x = &1;
}
