/* A struct member array without a dimension (no size). */
struct s {
	int a[];
};
BEGIN
{
	exit(0);
}
