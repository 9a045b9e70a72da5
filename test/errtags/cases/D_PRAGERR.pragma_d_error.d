/* #pragma D error inside a clause body. */
BEGIN
{
#pragma D error inside
	trace(1);
}
