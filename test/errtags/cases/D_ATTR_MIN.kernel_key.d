/* An associative array keyed by a kernel type has that type's attributes (Private). */
int a[struct task_struct *];

#pragma D option amin=Evolving/Evolving/Common

dtrace:::BEGIN
{
	trace(a[0] + 1);
}
