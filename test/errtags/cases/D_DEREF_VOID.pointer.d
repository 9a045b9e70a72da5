/* Unary * on a void pointer. */
void *p;
BEGIN
{
	x = *p;
}
