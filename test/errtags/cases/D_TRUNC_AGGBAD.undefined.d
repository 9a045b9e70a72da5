/* trunc() of an aggregation only referenced, never assigned. */
BEGIN
{
	trunc(@a[1], 2);
}
