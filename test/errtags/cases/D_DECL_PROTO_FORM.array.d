/* Two keys of an associative array with one name. */
int a[int k, string k];
BEGIN
{
	exit(0);
}
