/*
 * A scalar array indexed out of its bounds at run time faults with the
 * index (DTrace's "index out of bounds", fault 11), never reads or writes
 * next to the array; arrays of one element are not checked (anchors).
 */
#pragma D option quiet

int a[4];

BEGIN { i = 2; a[i] = 7; }
BEGIN { printf("%d\n", a[2]); }
BEGIN { i = 4; a[i] = 1; }
BEGIN { i = -1; trace(curthread->comm[i]); }
BEGIN { i = 15; printf("%d\n", curthread->comm[i] == 0 || curthread->comm[i] != 0); }
BEGIN { exit(0); }

ERROR
{
	printf("fault %d index %d\n", arg4, arg5);
}
