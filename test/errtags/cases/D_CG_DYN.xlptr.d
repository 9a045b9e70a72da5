/* A statement whose value is a translated pointer. */
BEGIN
{
	xlate <psinfo_t *>(curthread);
}
