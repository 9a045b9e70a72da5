/* A translator to an integer type. */
translator int < struct task_struct *t > {
	a = t->pid;
};
BEGIN
{
	exit(0);
}
