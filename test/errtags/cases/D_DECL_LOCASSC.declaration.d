/* A clause-local associative array. */
this string a[int];
BEGIN
{
	exit(0);
}
