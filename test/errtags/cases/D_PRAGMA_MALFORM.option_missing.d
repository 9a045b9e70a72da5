/* #pragma D option with no option. */
#pragma D option
BEGIN
{
}
