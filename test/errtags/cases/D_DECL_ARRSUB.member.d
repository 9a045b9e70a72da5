/* A struct member array with a negative dimension. */
struct s {
	char c[-1];
};
BEGIN
{
	exit(0);
}
