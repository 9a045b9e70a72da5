/* A union tag given a body again is refused at its brace, before the errors of the new body. */
union u { int a; };
union u {
	int b
};
BEGIN
{
	exit(0);
}
