/* #pragma D option with a blank around =: three words. */
#pragma D option bufsize = 4m
BEGIN
{
}
