/*
 * An inline whose value is a constant is that constant to DTrace (Stable
 * whatever #pragma D attributes says of the inline); what fails is the
 * variable beside it.
 */
#pragma D option amin=Evolving/Evolving/Common

inline int limit = 10;
#pragma D attributes Unstable/Unstable/Common limit

dtrace:::BEGIN
{
	trace(limit + curthread->pid);
}
