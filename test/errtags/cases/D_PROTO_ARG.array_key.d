/* An associative array's key of another type than at first. */
BEGIN
{
	a[1] = 1;
	a["one"] = 2;
}
