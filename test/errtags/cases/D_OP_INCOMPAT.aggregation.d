/* An aggregation used as an operand of +. */
BEGIN
{
	@c = count();
	x = @c + 1;
}
