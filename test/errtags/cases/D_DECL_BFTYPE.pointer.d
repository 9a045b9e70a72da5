/* A pointer bit-field. */
struct s {
	char *p : 3;
};
BEGIN
{
	exit(0);
}
