/* #pragma D attributes with the attributes but no identifier. */
#pragma D attributes Evolving/Evolving/Common
BEGIN
{
}
