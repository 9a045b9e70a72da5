/* A global redeclared with a typedef of its type (DTrace compares types by identity). */
int x;
int32_t x;
BEGIN
{
	exit(0);
}
