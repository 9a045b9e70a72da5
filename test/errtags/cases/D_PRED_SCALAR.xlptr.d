/* A translated pointer as the predicate. */
BEGIN
/xlate <psinfo_t *>(curthread)/
{
}
