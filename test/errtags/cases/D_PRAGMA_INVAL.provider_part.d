/* #pragma D attributes for a provider part that is not provider/module/function/name/args. */
#pragma D attributes Evolving/Evolving/Common provider syscall probes
BEGIN
{
}
