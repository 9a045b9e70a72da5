/* A named bit-field of width zero. */
struct s {
	int a : 1;
	int b : 0;
};
BEGIN
{
	exit(0);
}
