/* freopen("."): DTrace's own token for going back to stdout. */
BEGIN
{
	freopen(".");
}
