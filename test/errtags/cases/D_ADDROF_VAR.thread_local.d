/* Unary & on a thread-local variable. */
BEGIN
{
	self->t = 1;
	x = &self->t;
}
