#!/bin/bash
# A syntax error: DTrace's message with the line, the tag with -xerrtags,
# exit status 1 (usage errors exit 2).
f=/tmp/dt_syntax_$$.d
printf 'BEGIN\n{\n\tx = ;\n}\n' > $f
"$1" -s $f 2>&1 | sed "s|$f|X|"; echo "rc=${PIPESTATUS[0]}"
"$1" -x errtags -s $f 2>&1 | sed "s|$f|X|"; echo "rc=${PIPESTATUS[0]}"
rm -f $f
"$1" -n 'nosuch:::probe' 2>&1; echo "rc=$?"
"$1" -k 2>/dev/null; echo "rc=$?"
