/* An array cast to an integer. */
BEGIN
{
	x = (long)curthread->comm;
}
