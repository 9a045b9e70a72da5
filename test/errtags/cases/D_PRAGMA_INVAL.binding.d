/* #pragma D binding with a version string that is not M.m[.u]. */
int x;
#pragma D binding "1.x" x
BEGIN
{
	x = 1;
}
