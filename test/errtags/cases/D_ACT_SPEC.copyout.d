/* copyout() after speculate(). */
BEGIN
{
	speculate(1);
	copyout("x", 0, 1);
}
