#!/bin/bash
# A -c command that execs another program: frames recorded in each resolve
# through the mappings of the program they were in.  With address space
# randomization off (setarch -R), both programs' code sits at the same
# addresses: an address recorded there cannot be told to be one or the
# other, so it prints as a number, never as the other program's function.
command -v setarch >/dev/null || { echo "setarch is not installed (util-linux)" >&2; exit 77; }
w=$DT_WORKLOADS
prog='syscall::getppid:entry /pid == $target/ { @[ustack(2)] = count(); }'
echo "== randomized"
"$1" -qn "$prog" -c "$w/usym_late exec $w/stack_work 1 0"
echo "== not randomized"
"$1" -qn "$prog" -c "setarch $(uname -m) -R $w/usym_late exec $w/stack_work 1 0" |
	sed -E 's/0x[0-9a-f]+$/ADDR/'
