/*
 * Deep and long input: every construct a program can nest or repeat
 * either compiles or fails with DTrace's D_SYNTAX tag and a message
 * naming the limit; never a crash, on a thread with a small stack too.
 * Chains (a + b + c ..., || of thousands of predicates, ?: chains, long
 * lists) compile.  Compiling needs no privileges: nothing is loaded.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtrace.h"

#define DEEP 20000	/* far beyond any limit */
#define LONG 50000	/* chains and lists */

/* A growing string. */
struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *s)
{
	size_t len = strlen(s);

	if (t->n + len + 1 > t->cap) {
		t->cap = 2 * (t->n + len + 1);
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	memcpy(t->s + t->n, s, len + 1);
	t->n += len;
}

static void putf(struct text *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(t, buf);
}

static void rep(struct text *t, const char *s, int n)
{
	for (int i = 0; i < n; i++)
		put(t, s);
}

/* Compile src; NULL if it compiled, else the message (static). */
static const char *compile(const char *src)
{
	static char msg[1024];
	int err;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);

	assert_non_null(dtp);
	assert_int_equal(dtrace_setopt(dtp, "errtags", NULL), 0);
	dtrace_prog_t *pgp = dtrace_compile(dtp, src, "deep.d", 0, DTRACE_C_ZDEFS, 0, NULL);
	const char *r = NULL;
	if (pgp == NULL) {
		snprintf(msg, sizeof(msg), "%s", dtrace_errmsg(dtp));
		r = msg;
	}
	dtrace_close(dtp);
	return r;
}

static void compiles(struct text *t)
{
	const char *m = compile(t->s);

	if (m != NULL)
		fail_msg("expected to compile: %s", m);
	free(t->s);
	*t = (struct text){ 0 };
}

/* Fails with a nesting error naming the limit (or the stack) and D_SYNTAX. */
static void too_deep(struct text *t, const char *what)
{
	const char *m = compile(t->s);
	char want[64];

	if (m == NULL)
		fail_msg("expected a nesting error for %s", what);
	snprintf(want, sizeof(want), "%s nested too deeply", what);
	if (strstr(m, "[D_SYNTAX]") == NULL || strstr(m, want) == NULL ||
	    (strstr(m, "more than") == NULL && strstr(m, "stack") == NULL))
		fail_msg("unexpected message for %s: %s", what, m);
	free(t->s);
	*t = (struct text){ 0 };
}

static void test_parentheses(void **state)
{
	struct text t = { 0 };

	(void)state;
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "(", DEEP);
	put(&t, "x");
	rep(&t, ")", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
	/* Within the limit it compiles. */
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "(", 400);
	put(&t, "x");
	rep(&t, ")", 400);
	put(&t, "; }");
	compiles(&t);
}

static void test_operators(void **state)
{
	static const char *const prefix[] = { "-", "!", "~", "(int)", "sizeof ", "++", "*(int *)" };
	struct text t = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		put(&t, "int x; BEGIN { trace(");
		rep(&t, prefix[i], DEEP);
		put(&t, "x); }");
		too_deep(&t, "expression");
	}
	put(&t, "int x; BEGIN { trace(x");
	rep(&t, "++", DEEP);
	put(&t, "); }");
	too_deep(&t, "expression");
	/* Right operands nest: a + (b + (c + ...)), a = b = c ... */
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "x + (", DEEP);
	put(&t, "x");
	rep(&t, ")", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
	put(&t, "int x; BEGIN { ");
	rep(&t, "x = ", DEEP);
	put(&t, "1; }");
	too_deep(&t, "expression");
	/* ?: in its middle operand and condition nests. */
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "x ? (", DEEP);
	put(&t, "x");
	rep(&t, ") : 0", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
}

static void test_postfix(void **state)
{
	struct text t = { 0 };

	(void)state;
	put(&t, "int x; int a[int]; BEGIN { x = ");
	rep(&t, "a[", DEEP);
	put(&t, "x");
	rep(&t, "]", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
	put(&t, "struct s { int a; } v; BEGIN { trace(v");
	rep(&t, ".a", DEEP);
	put(&t, "); }");
	too_deep(&t, "expression");
	put(&t, "BEGIN { trace(curthread");
	rep(&t, "->real_parent", DEEP);
	put(&t, "->pid); }");
	too_deep(&t, "expression");
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "strlen(lltostr(", DEEP);
	put(&t, "x");
	rep(&t, "))", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
	put(&t, "BEGIN { trace(");
	rep(&t, "xlate <psinfo_t *> (", DEEP);
	put(&t, "curthread");
	rep(&t, ")", DEEP);
	put(&t, "->pr_pid); }");
	too_deep(&t, "expression");
}

static void test_statements(void **state)
{
	struct text t = { 0 };

	(void)state;
	/* Braces group only an if's statements (DTrace's grammar). */
	put(&t, "int x; BEGIN { ");
	rep(&t, "if (1) { ", DEEP);
	put(&t, "x = 1;");
	rep(&t, " }", DEEP);
	put(&t, " }");
	too_deep(&t, "statement");
	put(&t, "int x; BEGIN { ");
	rep(&t, "if (1) ", DEEP);
	put(&t, "x = 1; }");
	too_deep(&t, "statement");
	/* Long lists: statements, clauses, probe descriptions. */
	put(&t, "int x; BEGIN {\n");
	rep(&t, "x = x + 1;\n", LONG);
	put(&t, "}");
	compiles(&t);
	put(&t, "int x;\n");
	rep(&t, "BEGIN { x = 1; }\n", 5000);
	compiles(&t);
	put(&t, "BEGIN");
	rep(&t, ", BEGIN", 5000);
	put(&t, " { exit(0); }");
	compiles(&t);
	put(&t, "1");
	rep(&t, ", 1", 5000);
	put(&t, " { exit(0); }");
	compiles(&t);
}

static void test_declarations(void **state)
{
	struct text t = { 0 };

	(void)state;
	put(&t, "int ");
	rep(&t, "*", DEEP);
	put(&t, "y;");
	too_deep(&t, "declaration");
	put(&t, "int ");
	rep(&t, "(", DEEP);
	put(&t, "y");
	rep(&t, ")", DEEP);
	put(&t, ";");
	too_deep(&t, "declaration");
	put(&t, "int y");
	rep(&t, "[1]", DEEP);
	put(&t, ";");
	too_deep(&t, "declaration");
	put(&t, "struct s { ");
	for (int i = 0; i < DEEP; i++)
		putf(&t, "struct s%d { ", i);
	put(&t, "int a; ");
	rep(&t, "} m; ", DEEP);
	put(&t, "};");
	too_deep(&t, "declaration");
}

static void test_chains(void **state)
{
	struct text t = { 0 };

	(void)state;
	/* Left-associative chains are as deep as they are long; they compile. */
	put(&t, "int x; BEGIN { x = x");
	for (int i = 0; i < LONG; i++)
		putf(&t, " %c x", "+-*&|^"[i % 6]);
	put(&t, "; }");
	compiles(&t);
	put(&t, "BEGIN /pid == 0");
	for (int i = 1; i < LONG; i++)
		putf(&t, " || pid == %d", i);
	put(&t, "/ { exit(0); }");
	compiles(&t);
	put(&t, "BEGIN /pid != 0");
	for (int i = 1; i < LONG; i++)
		putf(&t, " && pid != %d", i);
	put(&t, "/ { exit(0); }");
	compiles(&t);
	put(&t, "int x; BEGIN { x = (x");
	rep(&t, ", x", LONG);
	put(&t, "); }");
	compiles(&t);
	/* Generated lookups: a ?: for each case. */
	put(&t, "int x; string s; BEGIN { x = ");
	for (int i = 0; i < 5000; i++)
		putf(&t, "x == %d ? %d : ", i, 2 * i);
	put(&t, "-1; s = ");
	for (int i = 0; i < 5000; i++)
		putf(&t, "x == %d ? \"s%d\" : ", i, i);
	put(&t, "\"none\"; }");
	compiles(&t);
}

static void test_long_tokens(void **state)
{
	struct text t = { 0 };

	(void)state;
	put(&t, "BEGIN { ");
	rep(&t, "abcdefghij", 100000);
	put(&t, " = 1; }");
	compiles(&t);
	put(&t, "BEGIN { trace(\"");
	rep(&t, "abcdefghij", 100000);
	put(&t, "\"); }");
	compiles(&t);
}

static void test_type_and_inline_chains(void **state)
{
	struct text t = { 0 };

	(void)state;
	/* Typedefs of typedefs, of arrays, of pointers: sizes and comparisons walk them. */
	put(&t, "typedef int t0;\n");
	for (int i = 1; i < 5000; i++)
		putf(&t, "typedef t%d t%d;\n", i - 1, i);
	put(&t, "t4999 y; BEGIN { y = 1; }");
	compiles(&t);
	put(&t, "typedef int r0[1];\n");
	for (int i = 1; i < DEEP; i++)
		putf(&t, "typedef r%d r%d[1];\n", i - 1, i);
	putf(&t, "BEGIN { trace(sizeof(r%d)); }", DEEP - 1);
	compiles(&t);
	put(&t, "typedef int *p0;\n");
	for (int i = 1; i < DEEP; i++)
		putf(&t, "typedef p%d *p%d;\n", i - 1, i);
	putf(&t, "p%d y, z; BEGIN { y = z; trace(y == z); }", DEEP - 1);
	compiles(&t);
	/* Inlines naming inlines: the code generator's depth has a limit too. */
	put(&t, "int x; inline int j0 = x;\n");
	for (int i = 1; i < DEEP; i++)
		putf(&t, "inline int j%d = j%d + x;\n", i, i - 1);
	putf(&t, "BEGIN { trace(j%d); }", DEEP - 1);
	too_deep(&t, "expression");
}

/* A -L library's clauses are walked for undefined functions: chains too. */
static void test_library_chains(void **state)
{
	char dir[] = "/tmp/test_deep_input.XXXXXX", path[64];
	struct text t = { 0 };
	int err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/chains.d", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("int x; BEGIN /pid == 0", f);
	for (int i = 1; i < LONG; i++)
		fprintf(f, " || pid == %d", i);
	fputs("/ { x = x", f);
	for (int i = 0; i < LONG; i++)
		fputs(" + x", f);
	fputs("; }\n", f);
	fclose(f);
	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	assert_non_null(dtp);
	assert_int_equal(dtrace_setopt(dtp, "libdir", dir), 0);
	put(&t, "BEGIN { exit(0); }");
	dtrace_prog_t *pgp = dtrace_compile(dtp, t.s, "deep.d", 0, DTRACE_C_ZDEFS, 0, NULL);
	if (pgp == NULL)
		fail_msg("library: %s", dtrace_errmsg(dtp));
	dtrace_close(dtp);
	free(t.s);
	unlink(path);
	rmdir(dir);
}

/* The same on a thread with a 256 KB stack: compiles or fails cleanly, never overflows. */
struct job {
	void (*fn)(void **);
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->fn(NULL);
	return NULL;
}

static void on_small_stack(void (*fn)(void **))
{
	pthread_attr_t attr;
	pthread_t th;
	struct job j = { fn };

	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
	assert_int_equal(pthread_create(&th, &attr, run_job, &j), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	pthread_attr_destroy(&attr);
}

/* Nesting the limit allows, on a small stack: it compiles or stops at the stack. */
static void near_limit(void **state)
{
	static const char *const kinds[][3] = {
		{ "(", "x", ")" }, { "strlen(lltostr(", "x", "))" }, { "a[", "x", "]" },
		{ "- ", "x", "" }, { "x + (", "x", ")" },
	};
	struct text t = { 0 };

	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		put(&t, "int x; int a[int]; BEGIN { x = ");
		rep(&t, kinds[k][0], 450);
		put(&t, kinds[k][1]);
		rep(&t, kinds[k][2], 450);
		put(&t, "; }");
		const char *m = compile(t.s);
		if (m != NULL && strstr(m, "nested too deeply") == NULL)
			fail_msg("unexpected message: %s", m);
		free(t.s);
		t = (struct text){ 0 };
	}
}

/* Beyond the limit: the limit's error or the stack's. */
static void over_limit(void **state)
{
	struct text t = { 0 };

	(void)state;
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "(", DEEP);
	put(&t, "x");
	rep(&t, ")", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
	put(&t, "int x; BEGIN { x = ");
	rep(&t, "strlen(lltostr(", DEEP);
	put(&t, "x");
	rep(&t, "))", DEEP);
	put(&t, "; }");
	too_deep(&t, "expression");
}

static void test_small_stack(void **state)
{
	(void)state;
	on_small_stack(near_limit);
	on_small_stack(over_limit);
	on_small_stack(test_chains);
	on_small_stack(test_library_chains);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parentheses),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_postfix),
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_long_tokens),
		cmocka_unit_test(test_type_and_inline_chains),
		cmocka_unit_test(test_library_chains),
		cmocka_unit_test(test_small_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
