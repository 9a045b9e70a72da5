/* An aggregation as an operand of ?:. */
BEGIN
{
	@c = count();
	x = pid ? @c : 1;
}
