/* #pragma D option whose option is a quoted string. */
#pragma D option "quiet"
BEGIN
{
}
