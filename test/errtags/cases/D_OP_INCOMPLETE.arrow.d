/* Operator -> on a pointer to a struct never defined. */
struct foo *p;
BEGIN
{
	x = p->a;
}
