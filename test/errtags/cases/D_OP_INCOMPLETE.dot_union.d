/* Operator . on a union never defined (through a pointer). */
union u *p;
BEGIN
{
	x = (*p).a;
}
