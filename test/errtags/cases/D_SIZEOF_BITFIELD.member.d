/* sizeof of a bit-field member. */
struct s { int a; int b : 3; } v;
BEGIN
{
	x = sizeof (v.b);
}
