/* A struct member name with a scoping operator. */
struct s {
	int a`b;
};
BEGIN
{
	exit(0);
}
