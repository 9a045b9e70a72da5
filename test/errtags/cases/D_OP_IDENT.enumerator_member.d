/* A member name that D reads as an enumerator. */
enum e { A };
struct s { int A; } v;
BEGIN
{
	x = v.A;
}
