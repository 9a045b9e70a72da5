/* uregs[ ] indexed by a string. */
BEGIN
{
	trace(uregs["a"]);
}
