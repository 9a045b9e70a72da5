/* An array dimension above UINT_MAX. */
char a[0x100000000];
BEGIN
{
	exit(0);
}
