/* A ?: of an alloca( ) pointer and another pointer assigned to a variable. */
BEGIN
{
	x = arg0 ? (char *)alloca(8) : (char *)arg1;
}
