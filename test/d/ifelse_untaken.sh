#!/bin/bash
# if/else: the actions of a branch that is not taken do nothing at all:
# system() runs no command, raise() sends no signal, freopen() moves no
# output, exit() ends nothing, stack()/ustack()/tracemem()/print() and
# printf() print nothing; those of the branch taken do.  (raise(SIGKILL)
# in a BEGIN clause would kill dtrace itself.)
d=$1
t=/tmp/dt_ifelse_untaken_$$
"$d" -w -q -n '
BEGIN
{
	a = 0;
	if (a) {
		system("echo system ran");
		raise(9);
		freopen("'$t'");
		stack();
		ustack();
		tracemem(curthread, 8);
		print(curthread);
		sym(0);
		exit(3);
		printf("printf ran\n");
	} else {
		system("echo else system ran");
		printf("else printf ran\n");
	}
	printf("after\n");
}

BEGIN
{
	if (a == 0) {
		exit(0);
	}
}' 2>&1
echo "rc=$?"
[ -e $t ] && echo "freopen made $t"
rm -f $t
exit 0
