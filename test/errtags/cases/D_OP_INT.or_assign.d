/* Operator |= with a string operand. */
BEGIN
{
	x = 1;
	x |= "a";
}
