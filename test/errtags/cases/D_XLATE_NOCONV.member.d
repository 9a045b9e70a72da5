/* A member of translated data that the translator does not convert. */
struct out {
	int a;
	int b;
};
translator struct out < struct task_struct *t > {
	a = t->pid;
};
BEGIN
{
	x = xlate<struct out>(curthread).b;
}
