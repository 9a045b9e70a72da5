/* Operator += on a void pointer. */
void *p;
BEGIN
{
	p += 4;
}
