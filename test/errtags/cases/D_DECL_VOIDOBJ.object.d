/* A global variable declared void. */
void x;
BEGIN
{
	exit(0);
}
