/* ustack() of a negative number of frames. */
BEGIN
{
	ustack(-1);
}
