#!/bin/bash
# Character constants DTrace refuses, with its tags: empty, longer than
# eight bytes (after escapes), a newline inside, eight bytes above
# LLONG_MAX (a decimal constant of no type), unterminated; and a decimal
# constant above LLONG_MAX without U.
dtrace=$1
try() {
	"$dtrace" -x errtags -qn "BEGIN { x = $1; exit(0); }" 2>&1 >/dev/null | grep -o '\[D_.*'
	echo "rc=${PIPESTATUS[0]}"
}
try "''"
try "'abcdefghi'"
try "'\\1\\2\\3\\4\\5\\6\\7\\10\\11'"
try "'\\'\\'\\'\\'\\''"
try "'ab
'"
try "'\\377\\377\\377\\377\\377\\377\\377\\377'"
try "'\\200abcdefg' + 1"
try "'\\177\\377\\377\\377\\377\\377\\377\\377'"
try "'ab"
# A decimal constant without U that fits no signed type has no type.
try "18446744073709551615"
try "18446744073709551615u"
