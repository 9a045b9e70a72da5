/* Pointers to different types subtracted. */
BEGIN
{
	x = curthread - (char *)0;
}
