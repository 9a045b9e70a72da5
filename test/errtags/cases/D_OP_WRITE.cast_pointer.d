/* Assignment through a cast pointer: a cast is no D variable. */
char *p;
BEGIN
{
	*(int *)p = 1;
}
