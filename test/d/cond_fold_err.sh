#!/bin/bash
# A ?: whose condition is no parse-time integer constant is checked whole,
# as DTrace does: an action operand is refused.  Variables, expressions
# with them (casts too) and sizeof of an expression are such conditions.
d=$1
for cond in 'sizeof (x)' 'x' 'B - x' '(char)x'; do
	"$d" -x errtags -e -n "enum e { A = 1, B = 2 }; BEGIN { x = 1; $cond ? printf(\"yes\") : 1; }" 2>&1 |
		sed 's/.*: \[/[/'
done
# A constant condition picks one operand; the other is never checked.
"$d" -x errtags -e -n 'BEGIN { 1 ? printf("yes") : undefined_variable; }' 2>/dev/null && echo ok
exit 0
