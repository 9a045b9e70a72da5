/* ustack() with a string size that is not a constant. */
BEGIN
{
	ustack(1, arg0);
}
