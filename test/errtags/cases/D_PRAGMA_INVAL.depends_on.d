/* #pragma D depends_on with a class other than provider, module or library. */
#pragma D depends_on function main
BEGIN
{
}
