/* A typedef named like a built-in variable. */
typedef int timestamp;
BEGIN
{
	exit(0);
}
