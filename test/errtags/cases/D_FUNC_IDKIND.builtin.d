/* Calling a built-in variable. */
BEGIN
{
	execname();
}
