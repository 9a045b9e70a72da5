/* #pragma D attributes for a provider the program declares only after the pragma. */
#pragma D attributes Evolving/Evolving/Common provider later_prov provider
provider later_prov {
	probe p();
};
BEGIN
{
}
