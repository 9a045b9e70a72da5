/* trace() of a translated struct. */
BEGIN
{
	trace(xlate <psinfo_t>(curthread));
}
