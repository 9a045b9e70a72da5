/* A struct after a type specifier. */
long int struct s x;
BEGIN
{
	exit(0);
}
