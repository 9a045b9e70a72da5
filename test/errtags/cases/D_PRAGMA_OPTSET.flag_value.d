/* #pragma D option giving a value to a compiler flag (they take none). */
#pragma D option zdefs=1
BEGIN
{
}
