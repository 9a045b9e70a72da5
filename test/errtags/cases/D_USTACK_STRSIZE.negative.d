/* ustack() with a negative string size. */
BEGIN
{
	ustack(1, -1);
}
