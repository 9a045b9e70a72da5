/* A thread-local variable name with a scoping operator. */
self int vmlinux`x;
BEGIN
{
	exit(0);
}
