/* tracemem() with a size that is not a constant. */
BEGIN
{
	tracemem(arg0, arg1);
}
