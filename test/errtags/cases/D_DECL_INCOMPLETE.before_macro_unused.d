/* A declaration's error comes before the check for unused macro arguments. */
union u {
	struct nowhere n;
};

BEGIN
{
	exit(0);
}
