/* An inline of type void. */
inline void x = 1;
BEGIN
{
	exit(0);
}
