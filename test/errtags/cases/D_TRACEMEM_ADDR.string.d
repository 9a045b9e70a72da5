/* tracemem() of a string (neither pointer nor integer). */
BEGIN
{
	tracemem("abc", 4);
}
