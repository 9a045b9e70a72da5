/* stack() of 0 frames. */
BEGIN
{
	stack(0);
}
