/* print( ) of a void pointer: it fits void *, but points to nothing of size. */
BEGIN
{
	print((void *)curthread);
}
