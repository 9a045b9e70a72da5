/* A probe identifier beyond 32 bits. */
4294967296
{
}
