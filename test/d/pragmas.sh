#!/bin/bash
# Control lines and cpp as DTrace has them: #pragma D option, #ident and
# other pragmas ignored, #line (the next line is N+1, as DTrace counts)
# and cpp's "# N file" markers (errors name an included file), #error;
# -C: an interpreter line, -Xs (K&R: no __STDC__), __SUNW_D_VERSION after
# -x version, -D/-U/-I, cppargs, -H (cpp lists included headers).
d=$1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cd "$t" || exit 1
printf '#pragma D option quiet\n#ident "x"\n#pragma ident "y"\n#pragma weak foo\n#pragma\n#\nBEGIN { printf("pragmas\\n"); exit(0); }\n' > p.d
"$d" -s p.d
printf 'BEGIN\n{\n#line 10\n\tx = ;\n}\n' > line.d
"$d" -e -s line.d 2>&1
printf 'BEGIN\n{\n# 20 "inc.h"\n\tx = ;\n}\n' > mark.d
"$d" -e -s mark.d 2>&1
printf '#error stop "here" now 12\nBEGIN { }\n' > err.d
"$d" -e -s err.d 2>&1
printf '#!/usr/sbin/dtrace -Cqs\n#if 1\nBEGIN { printf("hashbang line %%d\\n", __LINE__); exit(0); }\n#endif\n' > bang.d
"$d" -Cqs bang.d
printf 'BEGIN {\n#ifdef __STDC__\nprintf("stdc\\n");\n#else\nprintf("no stdc\\n");\n#endif\nexit(0); }\n' > stdc.d
"$d" -Cqs stdc.d
"$d" -Xa -Cqs stdc.d
"$d" -Xs -Cqs stdc.d
"$d" -x stdc=t -Cqs stdc.d
printf 'BEGIN { printf("%%x %%d\\n", __SUNW_D_VERSION, __SUNW_D); exit(0); }\n' > ver.d
"$d" -Cqs ver.d
"$d" -x version=1.5 -Cqs ver.d
mkdir inc && printf '#define FROM_HEADER 42\n' > inc/h.h
printf '#include "h.h"\nBEGIN { printf("%%d %%d\\n", FROM_HEADER, A + B); exit(0); }\n' > inc.d
"$d" -I inc -x cppargs='-DA=1 -DB=2' -Cqs inc.d
"$d" -H -I inc -x cppargs='-DA=1 -DB=2' -Cqs inc.d 2>&1 >/dev/null | grep '^\. ' | sed 's|/.*/|/|'
"$d" -x define=A=3 -D B=4 -Cqs inc.d -I inc
