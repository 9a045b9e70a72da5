/* Operator *= on a pointer. */
BEGIN
{
	p = curthread;
	p *= 2;
}
