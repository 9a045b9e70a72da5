/* A struct member declared void. */
struct s {
	int a;
	void b;
};
BEGIN
{
	exit(0);
}
