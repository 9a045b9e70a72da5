/* Unary minus on a string. */
BEGIN
{
	x = -"abc";
}
