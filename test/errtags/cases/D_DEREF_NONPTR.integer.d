/* Unary * on an integer. */
BEGIN
{
	x = *pid;
}
