/* A negative constant index into a declared array. */
int a[4];
BEGIN
{
	x = a[-1];
}
