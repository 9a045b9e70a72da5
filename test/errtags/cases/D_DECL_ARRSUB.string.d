/* An array dimension that is a string. */
int a["four"];
BEGIN
{
	exit(0);
}
