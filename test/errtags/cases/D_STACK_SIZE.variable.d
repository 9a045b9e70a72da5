/* stack() with a frame count that is not a constant. */
BEGIN
{
	stack(arg0);
}
