/* #pragma D attributes for an inline of the D library. */
#pragma D attributes Stable/Stable/Common curpsinfo
BEGIN
{
}
