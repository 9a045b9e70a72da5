/* probefunc has the provider's function attributes (syscall: Private/Private/ISA). @root */
#pragma D option amin=Evolving/Evolving/Common

syscall:::entry
{
	trace(probefunc);
}
