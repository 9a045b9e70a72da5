/* Assignment to a member of what a built-in variable points to. */
BEGIN
{
	curthread->pid = 1;
}
