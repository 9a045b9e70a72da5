/* An aggregation as an operand of the comma operator. */
BEGIN
{
	@c = count();
	x = (@c, 1);
}
