/* Calling an inline. */
inline int foo = 3;

BEGIN
{
	foo();
}
