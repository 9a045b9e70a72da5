/* A member a D struct does not have. */
struct s { int a; } v;
BEGIN
{
	x = v.b;
}
