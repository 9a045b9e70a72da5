/* A system call's description: its function names are the kernel's (Private/Private/ISA). @root */
#pragma D option amin=Evolving/Evolving/Common

syscall::read:entry
{
	trace(arg0);
}
