/* A macro argument that is a decimal integer beyond 64 bits. */
BEGIN
{
	trace($1);
}
