/* An array subscripted by a string. */
int a[4];
BEGIN
{
	x = a["one"];
}
