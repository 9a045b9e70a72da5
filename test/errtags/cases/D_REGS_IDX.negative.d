/* A negative uregs[ ] index. */
BEGIN
{
	trace(uregs[-1]);
}
