/* A varargs action called with fewer than its fixed arguments. */
BEGIN
{
	printf();
}
