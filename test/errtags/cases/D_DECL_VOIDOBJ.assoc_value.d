/* An associative array whose values are void. */
void a[int];
BEGIN
{
	exit(0);
}
