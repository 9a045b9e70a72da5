/* Operator << on a pointer. */
BEGIN
{
	x = curthread << 1;
}
