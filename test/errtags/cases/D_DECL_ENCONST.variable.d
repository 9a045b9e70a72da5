/* An enumerator assigned a variable. */
int x;
enum e {
	A = x
};
BEGIN
{
	exit(0);
}
