/*
 * trace() of a struct, union or array prints its bytes, even when they
 * read as a NUL-terminated string (dtrace-utils' trace of curthread->comm).
 */
#pragma D option quiet

struct s { char c[4]; } st;
char a[3];

BEGIN
{
	st.c[0] = 'a';
	st.c[1] = 'b';
	a[0] = 'x';
	trace(st);
	trace(a);
	trace(st.c);
	exit(0);
}
