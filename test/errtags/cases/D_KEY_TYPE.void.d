/* A void key of an associative array. */
BEGIN
{
	a[trace(1)] = 1;
}
