/* A thread-local variable of a union that is never defined. */
self union u x;
BEGIN
{
	exit(0);
}
