/* #pragma D option define: cpp options cannot come from the program. */
#pragma D option define=FOO
BEGIN
{
}
