/* printa() of aggregations whose keys differ in type. */
BEGIN
{
	@a[1] = count();
	@b["x"] = count();
	printa(@a, @b);
}
