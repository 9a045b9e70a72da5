/* A translator to a struct never defined. */
translator struct nosuch < struct task_struct *t > {
	a = t->pid;
};
BEGIN
{
	exit(0);
}
