#!/bin/bash
# Translator compile errors, with DTrace's tags and messages.
d=$(mktemp -d)
t() {
	printf '%s\n' "$2" > "$d/$1.d"
	"$3" -x errtags -s "$d/$1.d" 2>&1 | sed "s|$d/||"
}
S='struct in { int i; }; struct out { int o; char *p; };'
t none "$S BEGIN { trace(xlate <struct out> (1).o); }" "$1"
t noconv "$S translator struct out < int x > { o = x; }; BEGIN { trace(xlate <struct out> (1).p); }" "$1"
t redecl "$S translator struct out < int x > { o = x; };
translator struct out < int y > { o = y; };" "$1"
t sou "translator int < int x > { };" "$1"
t incomplete "translator struct nosuch < int x > { };" "$1"
t memb "$S translator struct out < int x > { q = x; };" "$1"
t incompat "$S translator struct out < int x > { p = x; };" "$1"
t cast "$S translator struct out < int x > { o = x; }; BEGIN { trace((long)xlate <struct out *> (1)); }" "$1"
t ptr "$S translator struct out < int x > { o = x; }; BEGIN { trace(xlate <struct out> (1)->o); }" "$1"
t nolib 'BEGIN { trace(curpsinfo->pr_size); }' "$1"
t lwp 'BEGIN { trace(curlwpsinfo->pr_nice); }' "$1"
rm -rf "$d"
