/* trace() of a translated pointer. */
BEGIN
{
	trace(xlate <psinfo_t *>(curthread));
}
