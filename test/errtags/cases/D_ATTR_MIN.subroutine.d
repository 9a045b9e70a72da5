/* A subroutine DTrace keeps Evolving (htonl()) under a Stable amin. */
dtrace:::BEGIN
{
	trace(htonl(1));
}
