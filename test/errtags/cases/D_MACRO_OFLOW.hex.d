/* A macro argument that is a hexadecimal integer beyond 64 bits. */
BEGIN
{
	trace($1 + 1);
}
