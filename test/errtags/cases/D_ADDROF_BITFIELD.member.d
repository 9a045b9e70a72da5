/* Unary & on a bit-field member. */
struct s { int a; int b : 3; } v;
BEGIN
{
	x = &v.b;
}
