/* A member a kernel struct does not have. */
BEGIN
{
	x = curthread->no_such_member;
}
