/* void with other parameters in a prototype. */
int f(int, void);
BEGIN
{
	exit(0);
}
