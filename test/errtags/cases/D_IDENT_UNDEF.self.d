/* self used alone. */
BEGIN
{
	trace(self);
}
