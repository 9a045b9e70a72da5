/* A char bit-field wider than 8 bits. */
struct s {
	char c : 9;
};
BEGIN
{
	exit(0);
}
