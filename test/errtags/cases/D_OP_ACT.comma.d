/* An action as an operand of the comma operator. */
BEGIN
{
	x = (trace(1), 2);
}
