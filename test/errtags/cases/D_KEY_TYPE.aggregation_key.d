/* An aggregation as a key of an associative array. */
BEGIN
{
	@c = count();
	a[1, @c] = 1;
}
