/* Operator -= on a struct. */
struct s { int a; } v;
BEGIN
{
	v -= 1;
}
