/* A thread-local variable declared void. */
self void x;
BEGIN
{
	exit(0);
}
