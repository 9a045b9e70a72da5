/* Division by a constant zero reported before an undefined variable. */
BEGIN
{
	x /= 0;
}
