/* An enumerator name with a scoping operator. */
enum e {
	a`b
};
BEGIN
{
	exit(0);
}
