/* An enumerator assigned a string. */
enum e {
	A = "a",
	B
};
BEGIN
{
	exit(0);
}
