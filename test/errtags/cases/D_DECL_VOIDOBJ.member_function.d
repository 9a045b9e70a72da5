/* A struct member of function type (it has no size). */
struct s {
	int f(int);
};
BEGIN
{
	exit(0);
}
