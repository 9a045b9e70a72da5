/* printa() of aggregations with different numbers of keys. */
BEGIN
{
	@a[1] = count();
	@b[1, 2] = count();
	printa(@a, @b);
}
