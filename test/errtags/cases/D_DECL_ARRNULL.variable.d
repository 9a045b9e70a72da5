/* An array variable without dimension or key types. */
self int a[];
BEGIN
{
	exit(0);
}
