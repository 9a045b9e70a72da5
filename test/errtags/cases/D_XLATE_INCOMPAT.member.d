/* A translator member given a value of an incompatible type. */
struct out {
	int a;
	int b;
};
translator struct out < struct task_struct *t > {
	a = t->comm;
};
BEGIN
{
	exit(0);
}
