/* Operator -> on a struct. */
struct s { int a; } v;
BEGIN
{
	x = v->a;
}
