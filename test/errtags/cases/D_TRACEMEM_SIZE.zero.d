/* tracemem() with a size of 0. */
BEGIN
{
	tracemem(arg0, 0);
}
