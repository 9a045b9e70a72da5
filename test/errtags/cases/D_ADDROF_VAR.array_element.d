/* Unary & on an associative array's element. */
BEGIN
{
	a[1] = 1;
	x = &a[1];
}
