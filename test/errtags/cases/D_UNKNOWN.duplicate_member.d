/* Two members of a struct with one name. */
struct s {
	int a;
	char a;
};
BEGIN
{
	exit(0);
}
