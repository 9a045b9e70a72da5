/* args[ ] of a provider that keeps its arguments Private (syscall), Evolving amin. @root */
#pragma D option amin=Evolving/Evolving/Common

syscall:::entry
{
	trace(args[0]);
}
