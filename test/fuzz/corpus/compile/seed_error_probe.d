/* A fault abandons the clause, prints DTrace's error and fires ERROR with its arguments. */
#pragma D option quiet

BEGIN { x = *(int *)8; printf("not reached\n"); }
BEGIN { printf("next clause runs\n"); }
ERROR { printf("ERROR fault %d addr %d\n", arg4, arg5); }
BEGIN { exit(0); }
