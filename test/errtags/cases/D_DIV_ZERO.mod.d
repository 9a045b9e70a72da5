/* Integer modulo whose divisor is the constant zero. */
BEGIN
{
	x = 10 % 0;
}
