/* An action as an operand of ?:. */
BEGIN
{
	x = pid ? func(0) : func(1);
}
