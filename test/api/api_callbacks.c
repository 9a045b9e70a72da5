/*
 * The public consumer API, live (root): record, drop and error callbacks
 * with DTRACE_CONSUME_NEXT / SKIP / ABORT, dtrace_set_output(NULL),
 * dtrace_oformat(), dtrace_aggregate_walk() by name, and errors as
 * negative errno with a message.  Built with include/dtrace.h only and
 * linked to the shared library.
 */
#define _GNU_SOURCE
#include <dtrace.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		printf("ok - ");					\
	} else {							\
		printf("FAIL (%s:%d) - ", __FILE__, __LINE__);		\
		failures++;						\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

struct seen {
	int records, skip_every, abort_at;
	int faults, errors, drops;
	int64_t last_trace;
	char printf_out[64];
	uint64_t ts;
	int fault_code;
	char fault_probe[32];
	uint64_t fault_addr;
	uint64_t drop_count;
};

static int on_record(dtrace_hdl_t *dtp, const dtrace_probedata_t *pd, void *arg)
{
	struct seen *s = arg;

	(void)dtp;
	s->records++;
	s->ts = pd->timestamp;
	for (size_t i = 0; i < pd->nactions; i++) {
		const dtrace_action_t *a = &pd->actions[i];
		if (a->kind == DTRACE_ACT_TRACE && a->nargs == 1 && a->args[0].kind == DTRACE_DATA_INT)
			s->last_trace = (int64_t)a->args[0].value;
		if (a->kind == DTRACE_ACT_PRINTF && a->output != NULL)
			snprintf(s->printf_out, sizeof(s->printf_out), "%.*s", (int)a->outputlen,
				 a->output);
	}
	if (s->abort_at && s->records == s->abort_at)
		return DTRACE_CONSUME_ABORT;
	if (s->skip_every && s->records % s->skip_every == 0)
		return DTRACE_CONSUME_SKIP;
	return DTRACE_CONSUME_NEXT;
}

static int on_error(dtrace_hdl_t *dtp, const dtrace_errdata_t *ed, void *arg)
{
	struct seen *s = arg;

	(void)dtp;
	if (ed->probe != NULL) {
		s->faults++;
		s->fault_code = ed->fault;
		s->fault_addr = ed->addr;
		snprintf(s->fault_probe, sizeof(s->fault_probe), "%s:::%s", ed->probe->provider,
			 ed->probe->name);
	} else {
		s->errors++;
	}
	return DTRACE_CONSUME_SKIP;
}

static int on_drop(dtrace_hdl_t *dtp, const dtrace_dropdata_t *dd, void *arg)
{
	struct seen *s = arg;

	(void)dtp;
	if (dd->kind == DTRACE_DROP_PRINCIPAL && dd->cpu >= 0)
		s->drops++;
	s->drop_count += dd->drops;
	return DTRACE_CONSUME_SKIP;
}

/* Compile, enable and run a program until it exits (or work fails). */
static enum dtrace_workstatus run_stalled(dtrace_hdl_t *dtp, const char *src, unsigned stall_ms)
{
	dtrace_prog_t *pgp = dtrace_compile(dtp, src, NULL, DTRACE_PSPEC_NAME, 0, 0, NULL);
	enum dtrace_workstatus st = DTRACE_WORKSTATUS_ERROR;

	if (pgp == NULL || dtrace_prog_exec(dtp, pgp) < 0 || dtrace_go(dtp) < 0) {
		printf("# setup failed: %s\n", dtrace_errmsg(dtp));
		return st;
	}
	usleep(stall_ms * 1000);	/* the consumer stalls: the buffer fills */
	for (int i = 0; i < 100; i++) {
		dtrace_sleep(dtp);
		st = dtrace_work(dtp);
		if (st != DTRACE_WORKSTATUS_OKAY)
			break;
	}
	dtrace_stop(dtp);
	return st;
}

static enum dtrace_workstatus run(dtrace_hdl_t *dtp, const char *src)
{
	return run_stalled(dtp, src, 0);
}

static dtrace_hdl_t *open_quiet(void)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);

	if (dtp == NULL) {
		printf("# dtrace_open: %s\n", strerror(err));
		exit(1);
	}
	dtrace_setopt(dtp, "quiet", NULL);
	return dtp;
}

static void test_skip_and_output(void)
{
	dtrace_hdl_t *dtp = open_quiet();
	struct seen s = { .skip_every = 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	dtrace_set_output(dtp, out);
	dtrace_handle_record(dtp, on_record, &s);
	CHECK(dtrace_oformat(dtp) == 0, "text output by default");
	run(dtp, "tick-1ms /n < 4/ { n++; trace(n); printf(\"line %d\\n\", n); }"
		 "tick-1ms /n == 4/ { exit(0); }");
	fflush(out);
	CHECK(s.records == 5, "record callback saw every record (%d)", s.records);
	CHECK(s.last_trace == 4, "trace() value decoded (%" PRId64 ")", s.last_trace);
	CHECK(strcmp(s.printf_out, "line 4\n") == 0, "printf() output formatted");
	CHECK(s.ts > 0, "timestamp in the record");
	/* records 2 and 4 skipped: only lines 1 and 3 printed */
	CHECK(buf != NULL && strcmp(buf, "1line 1\n3line 3\n") == 0,
	      "SKIP suppresses the library's output, NEXT keeps it: \"%s\"", buf ? buf : "");
	fclose(out);
	free(buf);
	dtrace_close(dtp);
}

static void test_abort(void)
{
	dtrace_hdl_t *dtp = open_quiet();
	struct seen s = { .abort_at = 2 };

	dtrace_set_output(dtp, NULL);
	dtrace_handle_record(dtp, on_record, &s);
	enum dtrace_workstatus st = run(dtp, "tick-1ms { trace(1); } tick-1s { exit(0); }");
	CHECK(st == DTRACE_WORKSTATUS_ERROR, "ABORT makes dtrace_work() fail");
	CHECK(dtrace_errno(dtp) == -ECANCELED, "errno -ECANCELED (%d)", dtrace_errno(dtp));
	CHECK(strstr(dtrace_errmsg(dtp), "callback") != NULL, "message: %s", dtrace_errmsg(dtp));
	CHECK(s.records == 2, "no record to the callback after the abort, not even at stop (%d)",
	      s.records);
	dtrace_close(dtp);
}

static void test_faults_and_errors(void)
{
	dtrace_hdl_t *dtp = open_quiet();
	struct seen s = { 0 };
	char path[] = "/tmp/dt_api_err_XXXXXX";
	int fd = mkstemp(path), saved = dup(2);

	/* stderr to a file: SKIP must keep the messages off it */
	fflush(stderr);
	dup2(fd, 2);
	dtrace_set_output(dtp, NULL);
	dtrace_handle_error(dtp, on_error, &s);
	run(dtp, "BEGIN { x = *(int *)8; } BEGIN { setopt(\"nosuchoption\"); } BEGIN { exit(0); }");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	off_t n = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(path);
	CHECK(s.faults == 1 && s.fault_code == 1 && s.fault_addr == 8,
	      "fault: code %d address %" PRIu64, s.fault_code, s.fault_addr);
	CHECK(strcmp(s.fault_probe, "dtrace:::BEGIN") == 0, "fault's probe %s", s.fault_probe);
	CHECK(s.errors == 1, "consumer error (setopt) to the callback (%d)", s.errors);
	CHECK(n == 0, "SKIP keeps them off stderr (%lld bytes)", (long long)n);
	dtrace_close(dtp);
}

static void test_drops(void)
{
	dtrace_hdl_t *dtp = open_quiet();
	struct seen s = { 0 };

	dtrace_setopt(dtp, "bufsize", "4k");
	dtrace_set_output(dtp, NULL);
	dtrace_handle_drop(dtp, on_drop, &s);
	run_stalled(dtp, "profile-4999 { printf(\"%s\\n\", \"a string long enough to fill\"); }"
		    "tick-1500ms { exit(0); }", 800);
	CHECK(s.drops > 0 && s.drop_count > 0, "drop callback: %d reports, %" PRIu64 " drops",
	      s.drops, s.drop_count);
	dtrace_close(dtp);
}

struct aggs {
	int entries;
	int64_t value;
	char key[32];
	size_t nbuckets;
	int64_t bmin, bmax, bcount;
};

static int on_agg(dtrace_hdl_t *dtp, const dtrace_aggdata_t *a, void *arg)
{
	struct aggs *g = arg;

	(void)dtp;
	g->entries++;
	g->value = a->value;
	if (a->nkeys == 1 && a->keys[0].kind == DTRACE_DATA_STRING)
		snprintf(g->key, sizeof(g->key), "%.*s", (int)a->keys[0].size,
			 (const char *)a->keys[0].data);
	g->nbuckets = a->nbuckets;
	if (a->nbuckets == 1) {
		g->bmin = a->buckets[0].min;
		g->bmax = a->buckets[0].max;
		g->bcount = a->buckets[0].count;
	}
	return DTRACE_CONSUME_NEXT;
}

static int stop_walk(dtrace_hdl_t *dtp, const dtrace_aggdata_t *a, void *arg)
{
	(void)dtp;
	(void)a;
	(void)arg;
	return DTRACE_CONSUME_ABORT;
}

static void test_aggregate_walk(void)
{
	dtrace_hdl_t *dtp = open_quiet();
	struct aggs c = { 0 }, q = { 0 };

	dtrace_set_output(dtp, NULL);
	CHECK(dtrace_setopt(dtp, "oformat", "json") == 0 && dtrace_oformat(dtp) == 1,
	      "oformat=json");
	CHECK(dtrace_setopt(dtp, "oformat", "yaml") == -EINVAL, "oformat=yaml: -EINVAL (%s)",
	      dtrace_errmsg(dtp));
	dtrace_setopt(dtp, "oformat", "json");
	run(dtp, "BEGIN { @c[\"k\"] = count(); @c[\"k\"] = count(); @q = quantize(100); exit(0); }");
	CHECK(dtrace_aggregate_walk(dtp, "c", on_agg, &c) == 1, "walk @c: one entry");
	CHECK(c.value == 2 && strcmp(c.key, "k") == 0, "@c[\"%s\"] = %" PRId64, c.key, c.value);
	CHECK(dtrace_aggregate_walk(dtp, "@q", on_agg, &q) == 1 && q.nbuckets == 1 &&
	      q.bmin == 64 && q.bmax == 127 && q.bcount == 1,
	      "walk @q: bucket [%" PRId64 ", %" PRId64 "] count %" PRId64, q.bmin, q.bmax, q.bcount);
	int rc = dtrace_aggregate_walk(dtp, "nosuch", on_agg, &c);
	CHECK(rc == -ENOENT, "no such aggregation: %d, %s", rc, dtrace_errmsg(dtp));
	rc = dtrace_aggregate_walk(dtp, NULL, stop_walk, NULL);
	CHECK(rc == -ECANCELED, "a walk stopped by its callback: %d", rc);
	dtrace_close(dtp);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("api_callbacks: must run as root (BPF); skipping\n");
		return 77;
	}
	test_skip_and_output();
	test_abort();
	test_faults_and_errors();
	test_drops();
	test_aggregate_walk();
	printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
