/* A missing operator before a built-in variable's name. */
BEGIN
{
	x = 1 pid;
}
