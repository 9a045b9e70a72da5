/* An aggregation not yet assigned, used as an operand. */
BEGIN
{
	x = @nosuch + 1;
}
