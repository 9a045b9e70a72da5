/* #pragma D option naming no option. */
#pragma D option nosuchoption
BEGIN
{
}
