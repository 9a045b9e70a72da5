/*
 * dtrace_count: a small libdtrace consumer.
 *
 * Compiles a D program that counts its own ticks, runs it with the
 * library's own output turned off, sees every record through a callback,
 * and walks the aggregations at the end.  Build it against the installed
 * library:
 *
 *	cc -o dtrace_count dtrace_count.c $(pkg-config --cflags --libs libdtrace)
 *
 * and run it as root (or with CAP_BPF and CAP_PERFMON).
 */
#include <dtrace.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program[] =
	"BEGIN { printf(\"%s started\\n\", \"dtrace_count\"); }\n"
	"tick-10ms /n < 4/ { n++; @ticks[probename] = count(); @hist = quantize(n * 100); trace(n); }\n"
	"tick-10ms /n == 4/ { exit(0); }\n";

struct counts {
	int records, drops, errors;
};

static int on_record(dtrace_hdl_t *dtp, const dtrace_probedata_t *pd, void *arg)
{
	struct counts *c = arg;

	(void)dtp;
	c->records++;
	for (size_t i = 0; i < pd->nactions; i++) {
		const dtrace_action_t *a = &pd->actions[i];

		if (a->kind == DTRACE_ACT_PRINTF)
			printf("%s:%s printf: %.*s", pd->probe.provider, pd->probe.name,
			       (int)a->outputlen, a->output);
		else if (a->kind == DTRACE_ACT_TRACE && a->args[0].kind == DTRACE_DATA_INT)
			printf("%s:%s trace: %" PRId64 " (%s)\n", pd->probe.provider, pd->probe.name,
			       (int64_t)a->args[0].value, a->args[0].type);
		else if (a->kind == DTRACE_ACT_EXIT)
			printf("%s:%s exit(%" PRId64 ")\n", pd->probe.provider, pd->probe.name,
			       (int64_t)a->args[0].value);
	}
	return DTRACE_CONSUME_NEXT;
}

static int on_drop(dtrace_hdl_t *dtp, const dtrace_dropdata_t *dd, void *arg)
{
	struct counts *c = arg;

	(void)dtp;
	c->drops++;
	fprintf(stderr, "drop: %s\n", dd->msg);
	return DTRACE_CONSUME_SKIP;
}

static int on_error(dtrace_hdl_t *dtp, const dtrace_errdata_t *ed, void *arg)
{
	struct counts *c = arg;

	(void)dtp;
	c->errors++;
	fprintf(stderr, "error: %s\n", ed->msg);
	return DTRACE_CONSUME_SKIP;
}

static int on_agg(dtrace_hdl_t *dtp, const dtrace_aggdata_t *agg, void *arg)
{
	(void)dtp;
	(void)arg;
	printf("@%s (%s)", agg->name, agg->funcname);
	for (size_t i = 0; i < agg->nkeys; i++) {
		const dtrace_datum_t *k = &agg->keys[i];
		if (k->kind == DTRACE_DATA_STRING)
			printf(" [%.*s]", (int)k->size, (const char *)k->data);
		else if (k->kind == DTRACE_DATA_INT)
			printf(" [%" PRIu64 "]", k->value);
	}
	if (agg->nbuckets == 0)
		printf(" = %" PRId64 "\n", agg->value);
	else
		printf("\n");
	for (size_t i = 0; i < agg->nbuckets; i++)
		printf("    [%" PRId64 ", %" PRId64 "]: %" PRId64 "\n", agg->buckets[i].min,
		       agg->buckets[i].max, agg->buckets[i].count);
	return DTRACE_CONSUME_NEXT;
}

static int fail(dtrace_hdl_t *dtp, const char *what)
{
	fprintf(stderr, "dtrace_count: %s: %s (%s)\n", what, dtrace_errmsg(dtp),
		strerror(-dtrace_errno(dtp)));
	dtrace_close(dtp);
	return 1;
}

int main(void)
{
	struct counts c = { 0, 0, 0 };
	dtrace_prog_t *pgp;
	dtrace_hdl_t *dtp;
	int err, status = 0;

	if ((dtp = dtrace_open(0, &err)) == NULL) {
		fprintf(stderr, "dtrace_count: cannot open libdtrace: %s\n", strerror(err));
		return 1;
	}
	if (dtrace_setopt(dtp, "bufsize", "512k") < 0 || dtrace_setopt(dtp, "quiet", NULL) < 0)
		return fail(dtp, "setopt");
	if (dtrace_preflight(dtp) < 0)
		return fail(dtp, "preflight");
	pgp = dtrace_compile(dtp, program, "dtrace_count", DTRACE_PSPEC_NAME, 0, 0, NULL);
	if (pgp == NULL)
		return fail(dtp, "compile");
	if (dtrace_prog_exec(dtp, pgp) < 0)
		return fail(dtp, "exec");
	printf("%d probes\n", dtrace_prog_nprobes(pgp));

	/* Everything through the callbacks; the library prints nothing itself. */
	dtrace_set_output(dtp, NULL);
	dtrace_handle_record(dtp, on_record, &c);
	dtrace_handle_drop(dtp, on_drop, &c);
	dtrace_handle_error(dtp, on_error, &c);

	if (dtrace_go(dtp) < 0)
		return fail(dtp, "go");
	for (;;) {
		dtrace_sleep(dtp);
		enum dtrace_workstatus st = dtrace_work(dtp);
		if (st == DTRACE_WORKSTATUS_ERROR)
			return fail(dtp, "work");
		if (st == DTRACE_WORKSTATUS_DONE)
			break;
	}
	if (dtrace_stop(dtp) < 0)
		return fail(dtp, "stop");
	if (dtrace_aggregate_walk(dtp, NULL, on_agg, NULL) < 0)
		return fail(dtp, "aggregate walk");
	dtrace_exited(dtp, &status);
	printf("%d records, %d drops, %d errors, exit status %d\n", c.records, c.drops, c.errors,
	       status);
	dtrace_close(dtp);
	return 0;
}
