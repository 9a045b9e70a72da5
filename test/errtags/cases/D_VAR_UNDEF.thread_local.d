/* A thread-local variable read before it is assigned. */
BEGIN
{
	trace(self->x);
}
