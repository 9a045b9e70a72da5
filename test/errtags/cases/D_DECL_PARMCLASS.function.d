/* A function prototype's parameter with a storage class. */
int f(static int a);
BEGIN
{
	exit(0);
}
