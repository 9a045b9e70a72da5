/* A member name that D reads as an integer inline. */
inline int MAX = 3;
struct s { int MAX; } v;
BEGIN
{
	x = v.MAX;
}
