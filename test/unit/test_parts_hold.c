/*
 * The consumer's hold on the records of a clause cut into parts
 * (consumer/parts.c): the earlier parts' records wait for their firing's
 * last part and then go out in order; a fault, a flagged last record or a
 * newer firing of the clause on the CPU drops them (a speculative one
 * still goes, flagged, to be counted).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "consumer/consumer.h"
#include "consumer/parts.h"

enum { D_ERR, D_HELD1, D_HELD2, D_LAST, D_OTHER_HELD, D_OTHER_LAST, ND };

static struct dt_rdesc rds[ND];
static struct dt_rdesc *rdv[ND];
static struct dt_core core;
static struct dt_descs descs;
static struct dt_consumer cs;

/* What the print callback was given: description and speculation, in order. */
static uint32_t got_desc[16], got_spec[16];
static size_t ngot;

static int print(struct dt_consumer *c, const struct dt_rdesc *rd, const void *data, size_t size)
{
	const struct dt_rec_hdr *h = data;

	(void)c;
	assert_true(size >= sizeof(*h));
	assert_int_equal(rd->id, h->desc);
	assert_true(ngot < 16);
	got_desc[ngot] = h->desc;
	got_spec[ngot++] = h->spec;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	memset(&cs, 0, sizeof(cs));
	memset(rds, 0, sizeof(rds));
	for (uint32_t i = 0; i < ND; i++) {
		rds[i].id = i;
		rds[i].size = DT_REC_DATA_OFF;
		rdv[i] = &rds[i];
	}
	rds[D_ERR].internal = true;
	rds[D_HELD1].clause = rds[D_HELD2].clause = rds[D_LAST].clause = 3;
	rds[D_HELD1].part_held = rds[D_HELD2].part_held = true;
	rds[D_LAST].part_last = true;
	rds[D_OTHER_HELD].clause = rds[D_OTHER_LAST].clause = 5;
	rds[D_OTHER_HELD].part_held = true;
	rds[D_OTHER_LAST].part_last = true;
	descs.rdescs.v = rdv;
	descs.rdescs.n = ND;
	cs.core = &core;
	cs.descs = &descs;
	ngot = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_parts_free(&cs);
	return 0;
}

/* Take a record of description d, as read from the ring; 1: held. */
static int take(uint32_t d, uint32_t cpu, uint64_t ts, uint32_t spec)
{
	struct dt_rec_hdr h = { .desc = d, .prid = 1, .cpu = cpu, .spec = spec, .timestamp = ts };

	return dt_parts_record(&cs, &rds[d], &h, sizeof(h), print);
}

static int fault(uint32_t clause, uint32_t cpu, uint64_t ts)
{
	struct {
		struct dt_rec_hdr h;
		struct dt_rec_error e;
	} r = { .h = { .desc = 0, .cpu = cpu, .timestamp = ts }, .e = { .stmt = clause } };

	return dt_parts_fault(&cs, &r, sizeof(r), print);
}

static void test_released_in_order(void **state)
{
	(void)state;
	assert_int_equal(take(D_HELD1, 0, 100, 0), 1);
	assert_int_equal(take(D_HELD2, 0, 100, 0), 1);
	assert_int_equal(ngot, 0);
	/* The last part's record goes on to be printed after them. */
	assert_int_equal(take(D_LAST, 0, 100, 0), 0);
	assert_int_equal(ngot, 2);
	assert_int_equal(got_desc[0], D_HELD1);
	assert_int_equal(got_desc[1], D_HELD2);
	/* Nothing is left: the next firing starts afresh. */
	assert_int_equal(take(D_LAST, 0, 200, 0), 0);
	assert_int_equal(ngot, 2);
}

static void test_fault_drops(void **state)
{
	(void)state;
	assert_int_equal(take(D_HELD1, 1, 100, 0), 1);
	assert_int_equal(take(D_HELD2, 1, 100, 0), 1);
	/* Another clause's fault, and another firing's, leave them. */
	assert_int_equal(fault(5, 1, 100), 0);
	assert_int_equal(fault(3, 0, 100), 0);
	assert_int_equal(fault(3, 1, 99), 0);
	assert_int_equal(ngot, 0);
	assert_int_equal(fault(3, 1, 100), 0);
	assert_int_equal(ngot, 0);
	/* Gone: a later last record of that firing has nothing to release. */
	assert_int_equal(take(D_LAST, 1, 100, 0), 0);
	assert_int_equal(ngot, 0);
}

static void test_fault_counts_speculative(void **state)
{
	(void)state;
	assert_int_equal(take(D_HELD1, 0, 100, 7), 1);
	assert_int_equal(take(D_HELD2, 0, 100, 0), 1);
	assert_int_equal(fault(3, 0, 100), 0);
	/* Only the speculative one goes out, flagged: counted, not printed. */
	assert_int_equal(ngot, 1);
	assert_int_equal(got_desc[0], D_HELD1);
	assert_int_equal(got_spec[0], 7 | DT_SPEC_CTLONLY);
}

static void test_flagged_last_drops(void **state)
{
	(void)state;
	assert_int_equal(take(D_HELD1, 0, 100, 0), 1);
	assert_int_equal(take(D_LAST, 0, 100, DT_SPEC_CTLONLY), 0);
	assert_int_equal(ngot, 0);
}

static void test_cpus_and_clauses_apart(void **state)
{
	(void)state;
	assert_int_equal(take(D_HELD1, 0, 100, 0), 1);
	assert_int_equal(take(D_HELD1, 1, 101, 0), 1);
	assert_int_equal(take(D_OTHER_HELD, 1, 101, 0), 1);
	assert_int_equal(take(D_LAST, 1, 101, 0), 0);
	assert_int_equal(ngot, 1);
	assert_int_equal(got_desc[0], D_HELD1);
	assert_int_equal(take(D_OTHER_LAST, 1, 101, 0), 0);
	assert_int_equal(ngot, 2);
	assert_int_equal(got_desc[1], D_OTHER_HELD);
	assert_int_equal(take(D_LAST, 0, 100, 0), 0);
	assert_int_equal(ngot, 3);
}

static void test_unended_firing_forgotten(void **state)
{
	(void)state;
	/* A drop ended the firing at 100 before its last part: the one at 200 replaces it. */
	assert_int_equal(take(D_HELD1, 0, 100, 0), 1);
	assert_int_equal(take(D_HELD1, 0, 200, 0), 1);
	assert_int_equal(take(D_HELD2, 0, 200, 0), 1);
	assert_int_equal(take(D_LAST, 0, 200, 0), 0);
	assert_int_equal(ngot, 2);
	assert_int_equal(got_desc[0], D_HELD1);
	assert_int_equal(got_desc[1], D_HELD2);
	/* And a record of no part is not the hold's business. */
	assert_int_equal(take(D_ERR, 0, 300, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_released_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_drops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_counts_speculative, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flagged_last_drops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpus_and_clauses_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unended_firing_forgotten, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
