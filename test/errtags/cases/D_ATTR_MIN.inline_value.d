/* An inline has its value's attributes: here curthread's (Private data). */
inline int mypid = curthread->pid;

dtrace:::BEGIN
{
	trace(mypid);
}

#pragma D option amin=Stable/Stable/Common
