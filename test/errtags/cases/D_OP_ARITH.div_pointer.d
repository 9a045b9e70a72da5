/* Operator / on a pointer. */
BEGIN
{
	x = curthread / 2;
}
