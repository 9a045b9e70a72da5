/* offsetof a member the struct does not have. */
struct s { int a; };
BEGIN
{
	x = offsetof(struct s, b);
}
