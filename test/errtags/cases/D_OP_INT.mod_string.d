/* Operator % with a string operand. */
BEGIN
{
	x = 7 % "abc";
}
