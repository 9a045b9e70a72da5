/* An associative array's key type with a storage class. */
int a[extern int];
BEGIN
{
	exit(0);
}
