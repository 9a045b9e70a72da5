/* A constant index past the end of a kernel array member. */
BEGIN
{
	x = curthread->comm[16];
}
