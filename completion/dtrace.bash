# bash completion for dtrace(8): options, -x option names (and the values
# of those with a fixed set), providers and probes from `dtrace -l`, D
# scripts, process IDs.  Installed as
# /usr/share/bash-completion/completions/dtrace; works without the
# bash-completion package too (source this file).

# The names -x and #pragma D option accept (DTrace's, and oformat and
# fbtmech).  test/d/completion.sh checks this list against
# src/base/options.c.
_dtrace_xopts="aggpercpu aggrate aggsize aggsortkey aggsortkeypos aggsortpos aggsortrev amin argref
bpflog bpflogsize bufpolicy bufresize bufsize cleanrate core cpp cppargs cpphdrs cpppath
cpu ctfpath ctypes debug debugassert defaultargs define destructive disasm droptags
dtypes dynvarsize empty errtags evaltime fbtmech flowindent grabanon incdir iregs
jstackframes jstackstrsize kdefs knodefs late lazyload ldpath libdir linkmode linknommap
linktype lockmem maxframes modpath nolibs nooptimize noresolve nspec oformat pcapsize pgmax
preallocate printsize procfspath pspec quiet quietresize rawbytes scratchsize specsize
stackframes stackindent statusrate stdc strip strsize switchrate syslibdir sysslice tree
tregs udefs undef unodefs useruid ustackframes verbose version zdefs"

_dtrace_flags="-32 -64 -a -A -b -B -c -C -D -e -f -F -G -h -H -i -I -l -L -m -n -o -p -P -q -s
-S -U -v -V -w -x -X -Z"

# `dtrace -l` as "id provider module function name", one probe a line (the
# listing is right-aligned in columns; empty fields are blank there).
_dtrace_probes() {
	local dtrace=${1:-dtrace}
	"$dtrace" -l 2>/dev/null | awk 'NR > 1 {
		if (NF == 5) { print $1, $2, $3, $4, $5; next }
		if (NF == 3) { print $1, $2, "-", "-", $3; next }
		if (NF == 4) {
			# module or function missing: which column did the third word end in?
			end = index($0, " " $3 " ") + length($3)
			if (end <= 35) print $1, $2, $3, "-", $4; else print $1, $2, "-", $3, $4
		}
	}'
}

# Candidates for the word in $cur (colons included) into COMPREPLY, with
# what bash treats as the word (after the last COMP_WORDBREAKS character)
# removed from their front.
_dtrace_reply() {
	local cur=$1
	shift
	_dtrace_reply_from "$cur" < <(printf '%s\n' "$@")
}

# The same, for candidates on standard input: the prefix test is done by
# awk, so that a listing of a hundred thousand probes stays quick.
_dtrace_reply_from() {
	local cur=$1
	mapfile -t COMPREPLY < <(awk -v c="$cur" 'length($0) && index($0, c) == 1')
	if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
		local pre=${cur%:*}:
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

_dtrace() {
	local line=${COMP_LINE:0:COMP_POINT}
	local cur=${line##*[[:space:]]}
	# the word before the one being completed, colons included
	local before=${line%"$cur"}
	before=${before%"${before##*[![:space:]]}"}
	local prev=${before##*[[:space:]]}
	local dtrace=${COMP_WORDS[0]}
	local IFS=$'\n'

	case $prev in
	-x)
		if [[ $cur == *=* ]]; then
			local name=${cur%%=*} vals=""
			case $name in
			oformat) vals="text json folded pprof openmetrics" ;;
			bufpolicy) vals="switch fill ring" ;;
			fbtmech) vals="auto fentry kprobe_multi kprobe" ;;
			bufresize) vals="auto manual" ;;
			evaltime) vals="exec preinit postinit main" ;;
			linkmode) vals="kernel dynamic static" ;;
			linktype) vals="elf dof" ;;
			stdc) vals="a c s t" ;;
			*) return ;;
			esac
			local v out=()
			for v in $(IFS=' '; printf '%s\n' $vals); do out+=("$name=$v"); done
			_dtrace_reply "$cur" "${out[@]}"
			COMPREPLY=("${COMPREPLY[@]#"$name="}")
			[[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${COMPREPLY[@]/#/$name=}")
			return
		fi
		_dtrace_reply "$cur" $(IFS=$' \n'; printf '%s\n' $_dtrace_xopts)
		return
		;;
	-P)
		_dtrace_reply_from "$cur" < <(_dtrace_probes "$dtrace" | awk '{ print $2 }' | sort -u)
		return
		;;
	-m)
		_dtrace_reply_from "$cur" < <(_dtrace_probes "$dtrace" | awk '$3 != "-" { print $3; print $2 ":" $3 }' | sort -u)
		return
		;;
	-f)
		_dtrace_reply_from "$cur" < <(_dtrace_probes "$dtrace" | awk '$4 != "-" { print $4 }' | sort -u)
		return
		;;
	-n)
		_dtrace_reply_from "$cur" < <(_dtrace_probes "$dtrace" | awk '{
			m = $3 == "-" ? "" : $3; f = $4 == "-" ? "" : $4
			print $2 ":" m ":" f ":" $5
			if (m != "") print $2 "::" f ":" $5 }')
		return
		;;
	-i)
		_dtrace_reply_from "$cur" < <(_dtrace_probes "$dtrace" | awk '{ print $1 }')
		return
		;;
	-s)
		COMPREPLY=($(compgen -f -X '!*.d' -- "$cur") $(compgen -d -- "$cur"))
		return
		;;
	-o)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-I | -L)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-p)
		COMPREPLY=($(compgen -W "$(ls /proc | grep '^[0-9]*$')" -- "$cur"))
		return
		;;
	-c)
		COMPREPLY=($(compgen -c -- "$cur"))
		return
		;;
	-X)
		COMPREPLY=($(compgen -W "a c s t" -- "$cur"))
		return
		;;
	-b | -D | -U)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		_dtrace_reply "$cur" $(IFS=$' \n'; printf '%s\n' $_dtrace_flags)
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _dtrace dtrace
