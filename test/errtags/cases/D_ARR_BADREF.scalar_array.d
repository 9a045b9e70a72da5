/* A scalar array accessed with two keys. */
int a[4];
BEGIN
{
	a[1, 2] = 3;
}
