#!/bin/bash
# One global variable more than DTrace numbers (it gives 64255 of them ids).
f=$(mktemp /tmp/dt-idoflow.XXXXXX) || exit 77
trap 'rm -f "$f"' EXIT
{
	for ((i = 0; i <= 64255; i++)); do
		echo "int v$i;"
	done
	echo 'BEGIN { exit(0); }'
} > "$f"
"$1" -x errtags -e -s "$f"
