/* sizeof of an aggregation. */
BEGIN
{
	@c = count();
	x = sizeof (@c);
}
