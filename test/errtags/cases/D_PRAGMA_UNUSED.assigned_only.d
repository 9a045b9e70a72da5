/* #pragma D binding for a variable only created by assignment, not declared. */
#pragma D binding "1.0" total
BEGIN
{
	total = 1;
}
