/* sizeof(void). */
BEGIN
{
	x = sizeof (void);
}
