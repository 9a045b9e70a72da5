/* #pragma D attributes for a built-in variable. */
#pragma D attributes Stable/Stable/Common execname
BEGIN
{
}
