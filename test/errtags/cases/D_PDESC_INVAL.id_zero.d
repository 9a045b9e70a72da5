/* Probe identifier 0 (no probe has it). */
0
{
}
