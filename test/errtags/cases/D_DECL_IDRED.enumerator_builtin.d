/* An enumerator named like a built-in variable. */
enum e {
	pid
};
BEGIN
{
	exit(0);
}
