/* A thread-local variable redeclared with another type. */
self int x;
self char x;
BEGIN
{
	exit(0);
}
