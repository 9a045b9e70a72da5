/* #pragma D binding with the version not quoted. */
int x;
#pragma D binding 1.0 x
BEGIN
{
	x = 1;
}
