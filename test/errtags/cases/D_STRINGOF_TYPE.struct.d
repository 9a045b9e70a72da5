/* stringof a struct. */
struct s { int a; } v;
BEGIN
{
	x = stringof(v);
}
