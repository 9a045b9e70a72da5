/* unsigned with void. */
unsigned void *p;
BEGIN
{
	exit(0);
}
