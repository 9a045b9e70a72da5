/* normalize() of an aggregation only referenced, never assigned. */
BEGIN
{
	normalize(@a[1], 2);
}
