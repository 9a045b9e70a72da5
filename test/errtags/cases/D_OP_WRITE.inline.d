/* Assignment to an inline of a built-in variable. */
inline int x = pid;
BEGIN
{
	x = 1;
}
