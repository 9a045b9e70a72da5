/* An associative array read before anything is stored in it. */
BEGIN
{
	trace(a[0]);
}
