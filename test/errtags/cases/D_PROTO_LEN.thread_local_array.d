/* A thread-local associative array used without keys. */
self int a[int];
BEGIN
{
	x = self->a;
}
