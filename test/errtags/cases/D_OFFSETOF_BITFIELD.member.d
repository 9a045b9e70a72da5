/* offsetof a bit-field member. */
struct s { int a; int b : 3; };
BEGIN
{
	x = offsetof(struct s, b);
}
