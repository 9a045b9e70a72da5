/* A typedef without a name. */
typedef long;
BEGIN
{
	exit(0);
}
