/*
 * Operators on operands DTrace accepts: pointers compared with each other and
 * NULL, pointer differences, ?: of a pointer and a null pointer, stringof of a
 * char array, a kernel enum compared with one of its tags by name.
 */
#pragma D option quiet
struct pt { int x, y; } p1;
int arr[4];
BEGIN
{
	t = curthread;
	printf("ptr eq: %d %d\n", t == curthread, t != NULL);
	printf("ptr diff: %d %d\n", &p1.y - &p1.x, (char *)&arr[3] - (char *)&arr[0]);
	q = pid ? (int *)0 : &arr[1];
	printf("ternary: %d\n", q == NULL);
	printf("stringof: %s\n", stringof(curthread->comm) == execname ? "same" : "differ");
	printf("enum cmp: %d\n", (enum pid_type)2 > PIDTYPE_PID);
	exit(0);
}
