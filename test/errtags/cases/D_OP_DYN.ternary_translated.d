/* Translated data as an operand of ?:. */
struct out { int a; } v;
translator struct out < struct task_struct *t > { a = t->pid; };
BEGIN
{
	x = pid ? xlate<struct out>(curthread) : v;
}
