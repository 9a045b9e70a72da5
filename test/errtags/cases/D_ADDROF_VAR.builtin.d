/* Unary & on a built-in variable. */
BEGIN
{
	x = &arg0;
}
