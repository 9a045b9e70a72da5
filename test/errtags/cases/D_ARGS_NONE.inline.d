/* args[ ] in an inline, outside any clause. */
inline int x = args[0];

BEGIN
{
	trace(x);
}
