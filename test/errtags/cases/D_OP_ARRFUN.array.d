/* Assignment to an array. */
int a[4];
int b[4];
BEGIN
{
	a = b;
}
