/* Assignment of a pointer to an incompatible pointer. */
int *p;
BEGIN
{
	p = (char *)0;
}
