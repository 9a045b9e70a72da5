/* A pointer compared with an integer other than 0. */
BEGIN
{
	x = curthread == 1;
}
