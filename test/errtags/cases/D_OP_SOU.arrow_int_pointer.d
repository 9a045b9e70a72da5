/* Operator -> on a pointer to an integer. */
int *p;
BEGIN
{
	x = p->a;
}
