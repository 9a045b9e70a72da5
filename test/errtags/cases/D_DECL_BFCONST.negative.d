/* A bit-field of negative width. */
struct s {
	int x : -1;
};
BEGIN
{
	exit(0);
}
