/* A union with no members: D, like C, needs at least one. */
union empty {
};

BEGIN
{
	exit(0);
}
