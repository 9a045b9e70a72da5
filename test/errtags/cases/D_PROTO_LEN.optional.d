/* More arguments than the optional ones allow. */
BEGIN
{
	trace(copyinstr(0, 1, 2));
}
