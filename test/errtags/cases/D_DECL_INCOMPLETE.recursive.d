/* A struct that contains itself (not a pointer to itself). */
struct s {
	struct s next;
	int a;
};
BEGIN
{
	exit(0);
}
