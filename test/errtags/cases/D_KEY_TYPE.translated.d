/* Translated data as a key. */
struct out { int a; };
translator struct out < struct task_struct *t > { a = t->pid; };
BEGIN
{
	a[xlate<struct out>(curthread)] = 1;
}
