/* print( ) of a value that is not a pointer: its prototype is void(void *). */
BEGIN
{
	print(probename);
}
