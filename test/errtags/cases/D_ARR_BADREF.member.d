/* A member array accessed with two keys. */
BEGIN
{
	x = curthread->comm[0, 1];
}
