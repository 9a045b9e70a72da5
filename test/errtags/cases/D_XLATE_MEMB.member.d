/* A translator member its output struct does not have. */
struct out {
	int a;
	int b;
};
translator struct out < struct task_struct *t > {
	a = t->pid;
	c = t->tgid;
};
BEGIN
{
	exit(0);
}
