/* long long long. */
long long long x;
BEGIN
{
	exit(0);
}
