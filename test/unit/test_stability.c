/*
 * Stability attributes: their operations, what DTrace's probe info rule
 * makes of a description from its providers' attributes, the attributes
 * #pragma D attributes sets, and D_ATTR_MIN as the front end reports it
 * (no probes here: every clause's description is Unstable).
 */
#include "front_helpers.h"

#include <errno.h>

#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"

static const struct dt_attr stable = DT_ATTR(STABLE, STABLE, COMMON);
static const struct dt_attr priv_isa = DT_ATTR(PRIVATE, PRIVATE, ISA);
static const struct dt_attr priv_unknown = DT_ATTR(PRIVATE, PRIVATE, UNKNOWN);
static const struct dt_attr unstable = DT_ATTR(UNSTABLE, UNSTABLE, COMMON);

static void assert_attr(struct dt_attr a, struct dt_attr want)
{
	char x[64], y[64];

	if (a.name != want.name || a.data != want.data || a.cls != want.cls)
		fail_msg("attributes %s, expected %s", dt_attr_str(a, x, sizeof(x)),
			 dt_attr_str(want, y, sizeof(y)));
}

static void test_attr_ops(void **state)
{
	struct dt_attr evol_isa = DT_ATTR(EVOLVING, EVOLVING, ISA);
	char buf[64];

	(void)state;
	/* Each part on its own: the least of Stable/Private/Common and Evolving/Evolving/ISA. */
	struct dt_attr a = DT_ATTR(STABLE, PRIVATE, COMMON);
	assert_attr(dt_attr_min(a, evol_isa), (struct dt_attr)DT_ATTR(EVOLVING, PRIVATE, ISA));
	/* Below if any part is. */
	assert_true(dt_attr_below(a, stable));
	assert_false(dt_attr_below(stable, a));
	assert_false(dt_attr_below(stable, stable));
	assert_true(dt_attr_below(priv_isa, evol_isa));
	assert_string_equal(dt_attr_str(priv_unknown, buf, sizeof(buf)), "Private/Private/Unknown");
	assert_string_equal(dt_attr_str(dt_attr_max, buf, sizeof(buf)), "Standard/Standard/Common");
}

static const struct dt_provider pv_dtrace = { .name = "dtrace", .pattr = &dt_pattr_dtrace };
static const struct dt_provider pv_syscall = { .name = "syscall", .pattr = &dt_pattr_kernel };
static const struct dt_provider pv_sdt = { .name = "sdt", .pattr = &dt_pattr_sdt };
static const struct dt_provider pv_proc = { .name = "proc", .pattr = &dt_pattr_sdt_stable };
static const struct dt_provider pv_none = { .name = "mine" };

static bool info(dtrace_hdl_t *dtp, const char *prv, const char *mod, const char *fun,
		 const char *prb, const struct dt_probe *first, size_t n, struct dt_attr *da,
		 const struct dt_pattr **ctx)
{
	const char *f[4] = { prv, mod, fun, prb };

	return dt_pdesc_info(dtp->reg, f, first, n, da, ctx);
}

static void test_pdesc_info(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_probe begin = { 1, &pv_dtrace, { "dtrace", "", "", "BEGIN" }, 0, NULL };
	struct dt_probe read = { 2, &pv_syscall, { "syscall", "vmlinux", "read", "entry" }, 0, NULL };
	struct dt_probe sw = { 3, &pv_sdt, { "sdt", "sched", "", "sched_switch" }, 0, NULL };
	struct dt_probe create = { 4, &pv_proc, { "proc", "vmlinux", "", "create" }, 0, NULL };
	struct dt_probe mine = { 5, &pv_none, { "mine", "", "", "p" }, 0, NULL };
	struct dt_attr da;
	const struct dt_pattr *ctx;

	/* The parts a description names: provider, function, name (not the empty module). */
	assert_true(info(dtp, "syscall", "", "read", "entry", &read, 1, &da, &ctx));
	assert_attr(da, priv_isa);
	assert_ptr_equal(ctx, &dt_pattr_kernel);
	/* dtrace:::BEGIN is Stable; "BEGIN" leaves its provider open: Unstable, */
	assert_true(info(dtp, "dtrace", "", "", "BEGIN", &begin, 1, &da, &ctx));
	assert_attr(da, stable);
	assert_true(info(dtp, "", "", "", "BEGIN", &begin, 1, &da, &ctx));
	assert_attr(da, unstable);
	/* though its clause still has the provider's attributes for args[ ] and probeprov. */
	assert_ptr_equal(ctx, &dt_pattr_dtrace);
	/* Several probes a name it keeps Evolving leaves open may differ: nothing is known. */
	assert_false(info(dtp, "syscall", "", "read", "", &read, 2, &da, &ctx));
	assert_attr(da, unstable);
	assert_ptr_equal(ctx, &dt_pattr_unstable);
	/* An open provider of probes whose arguments are below Evolving: the same. */
	assert_false(info(dtp, "*", "", "", "entry", &read, 300, &da, &ctx));
	/* Open parts the provider keeps Private do not matter. */
	assert_true(info(dtp, "syscall", "", "", "entry", &read, 300, &da, &ctx));
	assert_attr(da, (struct dt_attr)DT_ATTR(EVOLVING, EVOLVING, COMMON));
	assert_true(info(dtp, "sdt", "sched", "", "", &sw, 30, &da, &ctx));
	assert_attr(da, priv_unknown);
	/* Evolving arguments under an open provider are known, the description Unstable. */
	assert_true(info(dtp, "", "", "", "create", &create, 2, &da, &ctx));
	assert_attr(da, unstable);
	assert_ptr_equal(ctx, &dt_pattr_sdt_stable);
	/* No probe (-Z), and a provider that says nothing of itself (Unstable). */
	assert_false(info(dtp, "nosuch", "", "", "", NULL, 0, &da, &ctx));
	assert_true(info(dtp, "mine", "", "", "p", &mine, 1, &da, &ctx));
	assert_attr(da, unstable);
}

/* #pragma D attributes ... provider: one part changes, for this handle only. */
static void test_pattr_override(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_attr a = DT_ATTR(STABLE, EVOLVING, COMMON);

	assert_int_equal(dt_pattr_set(dtp->reg, "syscall", &pv_syscall, "name", a), 0);
	const struct dt_pattr *pa = dt_pattr_of(dtp->reg, "syscall", &pv_syscall);
	assert_attr(pa->name, a);
	assert_attr(pa->mod, priv_unknown);
	assert_attr(dt_pattr_kernel.name, (struct dt_attr)DT_ATTR(EVOLVING, EVOLVING, COMMON));
	assert_int_equal(dt_pattr_set(dtp->reg, "syscall", &pv_syscall, "args", stable), 0);
	assert_attr(dt_pattr_of(dtp->reg, "syscall", &pv_syscall)->name, a);
	assert_attr(dt_pattr_of(dtp->reg, "syscall", &pv_syscall)->args, stable);
	assert_int_equal(dt_pattr_set(dtp->reg, "syscall", &pv_syscall, "probe", stable), -EINVAL);
	/* Other providers keep their own. */
	assert_ptr_equal(dt_pattr_of(dtp->reg, "sdt", &pv_sdt), &dt_pattr_sdt);
}

static void test_attr_min_front(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* An inline is checked as DTrace parses it. */
	expect_check_error(dtp, "#pragma D option amin=Stable/Stable/Common\n"
			   "inline int x = curthread != 0;\n",
			   "[D_ATTR_MIN] line 2: attributes for scalar curthread "
			   "(Stable/Private/Common) are less than predefined minimum");
	/* ... by the pragmas before it. */
	expect_check_ok(dtp, "inline int y = curthread != 0;\n"
			"#pragma D option amin=Stable/Stable/Common\n");
	/* A clause first by its description (here none matched: Unstable), on its last line. */
	expect_check_error(dtp, "#pragma D option amin=Evolving/Evolving/Common\n"
			   "BEGIN\n{\nx = 1 + \"a\";\n}\n",
			   "[D_ATTR_MIN] line 5: attributes for clause "
			   "(Unstable/Unstable/Common) are less than predefined minimum");
	/* Then its statements, by a pragma anywhere. */
	expect_check_error(dtp, "BEGIN\n{\ntrace(curthread);\n}\n"
			   "#pragma D option amin=Unstable/Unstable/Common\n",
			   "[D_ATTR_MIN] line 3: attributes for scalar curthread "
			   "(Stable/Private/Common) are less than predefined minimum");
	expect_check_ok(dtp, "#pragma D option amin=Unstable/Private/Common\n"
			"BEGIN\n{\ntrace(curthread);\ntrace(htonl(1));\n}\n");
}

static void test_attr_pragmas(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* A global: the pragma after its declaration ... */
	expect_check_error(dtp, "int x;\n#pragma D attributes Private/Private/Unknown x\n"
			   "#pragma D option amin=Unstable/Unstable/Common\n"
			   "BEGIN\n{\ntrace(x);\n}\n",
			   "[D_ATTR_MIN] line 6: attributes for scalar x "
			   "(Private/Private/Unknown) are less than predefined minimum");
	/* ... or the first one before it (DTrace applies them in that order). */
	expect_check_error(dtp, "#pragma D attributes Private/Private/ISA y\n"
			   "#pragma D attributes Stable/Stable/Common y\nint y;\n"
			   "#pragma D option amin=Unstable/Unstable/Common\n"
			   "BEGIN\n{\ntrace(y);\n}\n",
			   "[D_ATTR_MIN] line 7: attributes for scalar y "
			   "(Private/Private/ISA) are less than predefined minimum");
	expect_check_ok(dtp, "int z;\n#pragma D attributes Private/Private/ISA z\n"
			"#pragma D attributes Stable/Stable/Common z\n"
			"#pragma D option amin=Unstable/Unstable/Common\n"
			"BEGIN\n{\ntrace(z);\n}\n");
	/* Constants are constants: an enumerator, an inline of a constant. */
	expect_check_ok(dtp, "enum e { A = 1 };\ninline int c = 2;\n"
			"#pragma D attributes Private/Private/Unknown c\n"
			"#pragma D option amin=Unstable/Unstable/Common\n"
			"BEGIN\n{\ntrace(A + c);\n}\n");
	/* A translator is what its members are; xlate to it too. */
	expect_check_error(dtp, "typedef struct s { int a; } s_t;\n"
			   "translator s_t < int i > { a = curthread != 0; };\n"
			   "#pragma D option amin=Unstable/Unstable/Common\n"
			   "BEGIN\n{\ntrace(xlate <s_t> (1).a);\n}\n",
			   "[D_ATTR_MIN] line 6: attributes for operator xlate "
			   "(Stable/Private/Common) are less than predefined minimum");
}

/* dtrace -v's numbers through the public API (dtrace:::BEGIN needs no kernel). */
static int one_pdesc(dtrace_hdl_t *dtp, const char *desc, const dtrace_probedetail_t *pd,
		     void *arg)
{
	int *n = arg;

	(void)dtp;
	assert_string_equal(desc, "dtrace:::BEGIN");
	assert_non_null(pd);
	assert_string_equal(pd->attr[0], "Stable");
	assert_string_equal(pd->attr[5], "Common");
	assert_int_equal(pd->nargs, 0);
	(*n)++;
	return 0;
}

static void test_prog_stability(void **state)
{
	int err, n = 0;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	const char *d[3], *s[3];

	(void)state;
	assert_non_null(dtp);
	dtrace_prog_t *pgp = dtrace_compile(dtp, "dtrace:::BEGIN { trace(curthread); }", NULL,
					    DTRACE_PSPEC_NAME, DTRACE_C_PSPEC, 0, NULL);
	assert_non_null(pgp);
	assert_int_equal(dtrace_prog_stability(dtp, pgp, d, s), 0);
	assert_string_equal(d[0], "Stable");
	assert_string_equal(d[1], "Stable");
	assert_string_equal(d[2], "Common");
	assert_string_equal(s[0], "Stable");
	assert_string_equal(s[1], "Private");
	assert_string_equal(s[2], "Common");
	assert_int_equal(dtrace_prog_pdesc_iter(dtp, pgp, one_pdesc, &n), 0);
	assert_int_equal(n, 1);
	dtrace_close(dtp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_ops),
		cmocka_unit_test_setup_teardown(test_pdesc_info, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_pattr_override, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_attr_min_front, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_attr_pragmas, fe_setup, fe_teardown),
		cmocka_unit_test(test_prog_stability),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
