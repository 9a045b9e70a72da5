/* A member of a struct declared later. */
struct a {
	struct b m;
};
struct b {
	int i;
};
BEGIN
{
	exit(0);
}
