/* unsigned with double. */
unsigned double d;
BEGIN
{
	exit(0);
}
