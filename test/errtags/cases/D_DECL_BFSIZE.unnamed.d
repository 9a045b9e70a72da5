/* An unnamed bit-field wider than its type. */
struct s {
	short : 17;
};
BEGIN
{
	exit(0);
}
