#!/bin/bash
# A string ends at its NUL and nothing after it is kept: a char array
# filled from a string (pr_psargs, from the process's arguments) holds only
# that string and zeros, whatever a longer string left there before; a
# string moved within its own storage (s = s + n, s = s) keeps its value.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
long=$(printf 'a%.0s' $(seq 100))
cat >"$dir/work" <<EOS
#!/bin/sh
/bin/echo $long bbb >/dev/null
/bin/true x
/bin/echo $long bbb >/dev/null
/bin/true x
EOS
chmod +x "$dir/work"
"$1" -q -c "$dir/work" -n '
proc:::exec-success /progenyof($target) && (execname == "echo" || execname == "true")/ {
	/* trace() of a char array prints its bytes: only NULs follow the string. */
	trace(curpsinfo->pr_psargs);
	printf("| %d\n", strlen(curpsinfo->pr_psargs));
	@[curpsinfo->pr_psargs] = count();
}
END {
	this->s = "abcdefgh";
	this->s = this->s + 3;
	g = "hello world";
	g = g;
	self->t = "0123456789";
	self->t = self->t + 4;
	a["k"] = "xyz";
	a["k"] = a["k"] + 3;
	/* Emptied in place, its second byte 1: still the empty string, not NULL. */
	b["k"] = "a\001";
	b["k"] = b["k"] + 2;
	printf("[%s] [%s] [%s] [%s] %d %d\n", this->s, g, self->t, a["k"], a["k"] == NULL,
	    b["k"] == NULL);
}'
