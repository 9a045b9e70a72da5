/*
 * The consumer's side of speculations (consumer/spec.c): records are
 * sorted by the use of a speculation they name (ID and generation), so
 * that an ID BPF has freed and handed out again at once never takes the
 * records of its earlier use, nor the earlier use those of the new one;
 * and an ID BPF leaves COMMITTING or DISCARDING (data on other CPUs) is
 * freed by the consumer, with a compare-and-swap that waits out a
 * speculate() in between.  The records are built by hand for the
 * descriptions a small program compiles to (no BPF is loaded).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/abi.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "bpf/runtime.h"
#include "consumer/consume.h"
#include "consumer/spec.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

#define NSPEC 2

static const char prog[] =
	"#pragma D option quiet\n"
	"#pragma D option nspec=2\n"
	"BEGIN { speculate(1); printf(\"v %d\\n\", arg0); }\n"
	"BEGIN { commit(1); }\n"
	"BEGIN { discard(1); }\n";

struct fix {
	dtrace_hdl_t *dtp;
	struct dt_runtime rt;
	uint32_t state;
	int64_t walloff;
	struct dt_spec_area *area;
	char *out;
	size_t outlen;
	FILE *fp;
	const struct dt_rdesc *spec_rd, *commit_rd, *discard_rd;
};

static struct fix F;

/* The record description with an item of this kind. */
static const struct dt_rdesc *desc_with(int kind)
{
	for (size_t i = 1; i < F.dtp->descs->rdescs.n; i++) {
		const struct dt_rdesc *rd = F.dtp->descs->rdescs.v[i];
		for (size_t k = 0; rd != NULL && k < rd->items.n; k++)
			if ((int)rd->items.v[k].kind == kind)
				return rd;
	}
	fail_msg("no record description with item kind %d", kind);
	return NULL;
}

static int setup(void **state)
{
	int err;

	(void)state;
	memset(&F, 0, sizeof(F));
	F.dtp = dtrace_open(0, &err);
	assert_non_null(F.dtp->cons);
	dtrace_prog_t *pgp = dtrace_compile(F.dtp, prog, "spec", DTRACE_PSPEC_NAME, 0, 0, NULL);
	if (pgp == NULL || dtrace_prog_exec(F.dtp, pgp) < 0)
		fail_msg("compile: %s", dtrace_errmsg(F.dtp));
	F.fp = open_memstream(&F.out, &F.outlen);
	assert_non_null(F.fp);
	dtrace_set_output(F.dtp, F.fp);
	F.rt.cpuinfo_fd = -1;
	F.rt.ps.ncpus = 2;
	F.rt.state = &F.state;
	F.rt.walloff = &F.walloff;
	F.dtp->cons->rt = &F.rt;
	F.area = calloc(1, DT_SPEC_AREA_SIZE(NSPEC));
	assert_non_null(F.area);
	assert_int_equal(dt_spec_init_area(F.dtp->cons, F.area, DT_SPEC_AREA_SIZE(NSPEC)), 0);
	F.spec_rd = desc_with(RK_PFARG);
	F.commit_rd = desc_with(RK_COMMIT);
	F.discard_rd = desc_with(RK_DISCARD);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_spec_close(F.dtp->cons);
	F.dtp->cons->rt = NULL;
	fclose(F.fp);
	free(F.out);
	free(F.area);
	dtrace_close(F.dtp);
	return 0;
}

static const char *output(void)
{
	fflush(F.fp);
	return F.out ? F.out : "";
}

static void feed(const struct dt_rdesc *rd, uint32_t spec, int kind, uint64_t v)
{
	uint8_t *rec = calloc(1, rd->size);
	struct dt_rec_hdr h = { .desc = rd->id, .spec = spec, .timestamp = 1 };

	assert_non_null(rec);
	memcpy(rec, &h, sizeof(h));
	for (size_t k = 0; k < rd->items.n; k++)
		if ((int)rd->items.v[k].kind == kind)
			memcpy(rec + rd->items.v[k].off, &v, rd->items.v[k].size);
	assert_int_equal(dt_print_record(F.dtp->cons, rec, rd->size), 0);
	free(rec);
}

static void speculated(uint32_t id, uint32_t gen, int64_t v)
{
	feed(F.spec_rd, DT_SPEC_TAG(id, gen), RK_PFARG, (uint64_t)v);
}

static void ended(const struct dt_rdesc *rd, uint32_t id, uint32_t gen, uint32_t count)
{
	feed(rd, 0, rd == F.commit_rd ? RK_COMMIT : RK_DISCARD,
	     DT_SPEC_ENDED(DT_SPEC_TAG(id, gen), count));
}

/*
 * Use 0 of ID 1 is committed; BPF frees it at once and hands it out again
 * (use 1) before the last record of use 0 is read: that record is printed
 * (committed), use 1's is kept, then discarded.
 */
static void test_reuse_keeps_uses_apart(void **state)
{
	(void)state;
	speculated(1, 0, 1);
	speculated(1, 0, 2);
	assert_string_equal(output(), "");
	ended(F.commit_rd, 1, 0, 3);
	assert_string_equal(output(), "v 1\nv 2\n");
	speculated(1, 1, 10);
	speculated(1, 0, 3);
	assert_string_equal(output(), "v 1\nv 2\nv 3\n");
	ended(F.discard_rd, 1, 1, 1);
	speculated(1, 2, 30);
	ended(F.commit_rd, 1, 2, 1);
	assert_string_equal(output(), "v 1\nv 2\nv 3\nv 30\n");
	/* A record of the discarded use read after its discard is dropped. */
	ended(F.discard_rd, 1, 3, 1);
	speculated(1, 3, 40);
	assert_string_equal(output(), "v 1\nv 2\nv 3\nv 30\n");
}

/* BPF left ID 2 COMMITTING (data on another CPU): the consumer frees it once it has read the commit. */
static void test_consumer_frees_committing(void **state)
{
	(void)state;
	F.area->spec[2].ctl = DT_SPEC_CTL(DT_SPEC_COMMITTING, 5, 2);
	speculated(2, 5, 20);
	dt_spec_pass(F.dtp->cons);
	assert_int_equal(F.area->spec[2].ctl, DT_SPEC_CTL(DT_SPEC_COMMITTING, 5, 2));
	ended(F.commit_rd, 2, 5, 2);
	assert_int_equal(F.area->spec[2].ctl, DT_SPEC_CTL(DT_SPEC_INACTIVE, 6, 0));
	speculated(2, 5, 21);
	assert_string_equal(output(), "v 20\nv 21\n");
}

/* A speculate() in between (its 1 not yet taken back) holds the free off until the next pass. */
static void test_free_waits_for_speculate(void **state)
{
	(void)state;
	F.area->spec[1].ctl = DT_SPEC_CTL(DT_SPEC_DISCARDING, 7, 1) + 1;
	speculated(1, 7, 70);
	ended(F.discard_rd, 1, 7, 1);
	dt_spec_pass(F.dtp->cons);
	assert_int_equal(F.area->spec[1].ctl, DT_SPEC_CTL(DT_SPEC_DISCARDING, 7, 1) + 1);
	F.area->spec[1].ctl -= 1;
	dt_spec_pass(F.dtp->cons);
	assert_int_equal(F.area->spec[1].ctl, DT_SPEC_CTL(DT_SPEC_INACTIVE, 8, 0));
	assert_string_equal(output(), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reuse_keeps_uses_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_consumer_frees_committing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_waits_for_speculate, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
