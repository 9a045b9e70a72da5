/* Assignment to an inline constant (an integer to DTrace). */
inline int x = 3;
BEGIN
{
	x = 1;
}
