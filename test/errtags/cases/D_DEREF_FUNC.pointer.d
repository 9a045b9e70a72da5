/* Unary * on a function pointer. */
int (*fp)(int);
BEGIN
{
	x = *fp;
}
