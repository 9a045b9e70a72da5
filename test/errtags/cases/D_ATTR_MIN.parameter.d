/* A probe parameter of a kernel type, checked as DTrace parses it. */
#pragma D option amin=Evolving/Evolving/Common

provider mine {
	probe start(int, struct task_struct *);
};

dtrace:::BEGIN
{
}
