/* Integer division whose divisor is the constant zero. */
BEGIN
{
	x = 10 / (2 - 2);
}
