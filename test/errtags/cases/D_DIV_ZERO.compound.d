/* Compound division by the constant zero. */
BEGIN
{
	x = 10;
	x /= 0;
}
