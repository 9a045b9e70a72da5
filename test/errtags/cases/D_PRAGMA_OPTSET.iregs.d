/* #pragma D option iregs below DTrace's 8 registers. */
#pragma D option iregs=4
BEGIN
{
}
