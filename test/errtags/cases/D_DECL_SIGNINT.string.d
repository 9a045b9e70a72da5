/* signed with string. */
signed string s;
BEGIN
{
	exit(0);
}
