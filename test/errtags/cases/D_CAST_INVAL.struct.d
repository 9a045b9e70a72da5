/* A struct cast to an integer. */
struct s { int a; } v;
BEGIN
{
	x = (int)v;
}
