/* A built-in scalar accessed with two keys. */
BEGIN
{
	x = pid[1, 2];
}
