/* A declaration with only a qualifier (DTrace then looks up an empty type name). */
const x;
BEGIN
{
	exit(0);
}
