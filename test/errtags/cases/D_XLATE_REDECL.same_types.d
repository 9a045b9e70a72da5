/* A second translator between the same types. */
struct out {
	int a;
	int b;
};
translator struct out < struct task_struct *t > {
	a = t->pid;
};
translator struct out < struct task_struct *t > {
	a = t->pid;
};
BEGIN
{
	exit(0);
}
