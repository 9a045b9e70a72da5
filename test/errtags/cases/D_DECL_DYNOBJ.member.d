/* A struct member that is an associative array. */
struct s {
	int a[int];
};
BEGIN
{
	exit(0);
}
