/*
 * A cast to a kernel type with amin set only after it: the cast
 * expression (and so the member of it) is below amin when the clause is
 * checked.
 */
dtrace:::BEGIN
{
	trace(((struct task_struct *)arg0)->pid);
}

#pragma D option amin=Evolving/Evolving/Common
