/* An array of void. */
void a[4];
BEGIN
{
	exit(0);
}
