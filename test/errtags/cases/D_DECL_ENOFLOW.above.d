/* An enumerator above INT_MAX. */
enum e {
	A = 0x80000000
};
BEGIN
{
	exit(0);
}
