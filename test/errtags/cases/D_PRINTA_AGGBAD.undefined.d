/* printa() of an aggregation only referenced, never assigned. */
BEGIN
{
	printa(@a[1]);
}
