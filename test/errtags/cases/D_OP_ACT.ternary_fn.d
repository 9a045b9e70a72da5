/* Actions as the operands of ?:. */
BEGIN
{
	x = arg0 ? trace(1) : trace(2);
}
