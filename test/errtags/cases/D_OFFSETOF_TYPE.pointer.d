/* offsetof on a pointer to a struct. */
struct s { int a; };
BEGIN
{
	x = offsetof(struct s *, a);
}
