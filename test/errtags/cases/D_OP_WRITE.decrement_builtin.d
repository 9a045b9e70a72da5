/* Operator -- on a built-in variable. */
BEGIN
{
	pid--;
}
