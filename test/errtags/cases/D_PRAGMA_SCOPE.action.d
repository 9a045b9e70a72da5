/* #pragma D binding for a built-in action. */
#pragma D binding "1.0" trace
BEGIN
{
}
