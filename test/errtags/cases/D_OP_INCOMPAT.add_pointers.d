/* Two pointers added. */
BEGIN
{
	x = curthread + curthread;
}
