/* Operator && with a struct operand. */
struct s { int a; } v;
BEGIN
{
	x = curthread->pid && v;
}
