/* short float. */
short float x;
BEGIN
{
	exit(0);
}
