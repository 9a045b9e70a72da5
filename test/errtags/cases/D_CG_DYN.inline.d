/* A statement naming an inline that is a translated pointer. */
inline psinfo_t *p = xlate <psinfo_t *>(curthread);

BEGIN
{
	p;
}
