/* offsetof on an integer type. */
BEGIN
{
	x = offsetof(int, a);
}
