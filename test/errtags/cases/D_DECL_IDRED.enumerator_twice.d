/* An enumerator of one enum named like one of another. */
enum a {
	X
};
enum b {
	X
};
BEGIN
{
	exit(0);
}
