/* #pragma D option with a value the option refuses (a negative size). */
#pragma D option bufsize=-1
BEGIN
{
}
