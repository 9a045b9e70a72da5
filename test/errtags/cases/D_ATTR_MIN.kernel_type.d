/* A cast to a kernel type (Private), checked as DTrace parses the type name. */
#pragma D option amin=Evolving/Evolving/Common

dtrace:::BEGIN
{
	trace(((struct task_struct *)arg0)->pid);
}
