/* short with char. */
short char c;
BEGIN
{
	exit(0);
}
