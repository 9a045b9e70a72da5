#!/bin/bash
# Bash completion (completion/dtrace.bash): options, -x option names and
# values, providers and probes from `dtrace -l`; its option list is the
# one src/base/options.c accepts.
d=$1
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../..
# shellcheck source=/dev/null
. "$src/completion/dtrace.bash"
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'

comp() {
	COMP_LINE="$d $1"
	COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<< "$COMP_LINE"
	[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_dtrace
	echo "[$1] $(printf '%s\n' "${COMPREPLY[@]}" | sort | head -${2:-8} | tr '\n' ' ')"
}

comp "-" 40
comp "-x sw"
comp "-x agg" 10
comp "-x oformat="
comp "-x bufpolicy=f"
comp "-x fbtmech=k"
comp "-q -x o"
comp "-P sy"
comp "-P " 40
comp "-n dtrace:::B"
comp "-n syscall::getpp"
comp "-n syscall:vmlinux:getppid:e"
comp "-n sys" 3
comp "-f getpp"
comp "-m vml"
comp "-i 3"
comp "-X "
printf 'BEGIN { exit(0); }\n' > /tmp/dt_comp_$$.d
comp "-s /tmp/dt_comp_$$"  | sed "s/$$/PID/g"
rm -f /tmp/dt_comp_$$.d
complete -p dtrace

want=$(grep -o '{ "[a-z]*", OK_[A-Z]*' "$src/src/base/options.c" |
	sed 's/{ "\([a-z]*\)".*/\1/' | sort)
have=$(printf '%s\n' $_dtrace_xopts | sort)
if [ "$want" = "$have" ]; then echo "option list matches options.c"; else
	echo "option list differs from options.c:"; diff <(echo "$want") <(echo "$have"); fi
