/* A bit-field whose width is a string. */
struct s {
	int x : "3";
};
BEGIN
{
	exit(0);
}
