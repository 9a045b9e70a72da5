/* A typedef of a name D defines. */
typedef int uint64_t;
BEGIN
{
	exit(0);
}
