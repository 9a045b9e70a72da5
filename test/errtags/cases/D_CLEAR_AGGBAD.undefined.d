/* clear() of an aggregation only referenced, never assigned. */
BEGIN
{
	clear(@a[1]);
}
