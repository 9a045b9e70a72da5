/* A type both signed and unsigned. */
signed unsigned int x;
BEGIN
{
	exit(0);
}
