/* #pragma D attributes naming an identifier the program never declares. */
#pragma D attributes Evolving/Evolving/Common nosuchvar
BEGIN
{
}
