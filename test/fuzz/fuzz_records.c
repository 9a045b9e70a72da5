/*
 * libFuzzer target: the consumer's record decoder and printers.  A handle
 * compiles records.d (every kind of record item) without loading BPF; a
 * stand-in run time gives it a speculation area.  Each input is a series
 * of ring-buffer records, fed one by one to dt_print_record() exactly as
 * the ring buffer callback does, each in a buffer of exactly its size:
 *
 *   u8 mode, u8 desc, u16 len (little-endian), len bytes
 *
 * mode & 3: 0 the bytes are the whole record (any header, any size);
 *           1 a header for record description `desc` (mod their number,
 *             the probe one of its clause's), cpu, spec and timestamp from
 *             the first 16 bytes, then the data, zero-filled to the size;
 *           2 the same, cut to the bytes given (a truncated record);
 *           3 run the speculations' end-of-pass (dt_spec_pass).
 * mode & 4:  JSON output for this record (else text)
 * mode & 8:  a record callback decodes it (dtrace_probedata_t)
 * mode & 16: the callback returns DTRACE_CONSUME_SKIP (with 8)
 * mode & 32: quiet
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "bpf/runtime.h"
#include "compiler/program.h"
#include "consumer/consume.h"
#include "consumer/spec.h"
#include "lib/dt_impl.h"

#ifndef RECORDS_D
#error "RECORDS_D: the path of records.d"
#endif

#define NSPEC 4

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dtrace_hdl_t *g_dtp;
static void *g_spec_area;
static size_t g_spec_size;
static uint32_t g_state;
static int64_t g_walloff;
static int g_skip;

static int on_record(dtrace_hdl_t *dtp, const dtrace_probedata_t *pd, void *arg)
{
	size_t n = 0;

	(void)dtp, (void)arg;
	/* Touch what the callback is given, as a consumer would. */
	for (size_t i = 0; i < pd->nactions; i++) {
		const dtrace_action_t *a = &pd->actions[i];
		if (a->output != NULL)
			n += strnlen(a->output, a->outputlen);
		for (size_t k = 0; k < a->nargs; k++) {
			const dtrace_datum_t *d = &a->args[k];
			if (d->text != NULL)
				n += strlen(d->text);
			if (d->data != NULL && d->size > 0)
				n += ((const uint8_t *)d->data)[d->size - 1];
		}
	}
	return g_skip ? DTRACE_CONSUME_SKIP : (n == (size_t)-1 ? DTRACE_CONSUME_ABORT
							     : DTRACE_CONSUME_NEXT);
}

static int on_error(dtrace_hdl_t *dtp, const dtrace_errdata_t *ed, void *arg)
{
	(void)dtp, (void)arg;
	return strlen(ed->msg) > 0 ? DTRACE_CONSUME_SKIP : DTRACE_CONSUME_NEXT;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int err;

	(void)argc, (void)argv;
	g_dtp = dtrace_open(0, &err);
	if (g_dtp == NULL)
		abort();
	if (dtrace_setopt(g_dtp, "nspec", "4") < 0 || dtrace_setopt(g_dtp, "destructive", NULL) < 0)
		abort();
	dtrace_prog_t *pgp = dtrace_compile(g_dtp, RECORDS_D, RECORDS_D, DTRACE_PSPEC_NAME,
					    DTRACE_C_FILE, 0, NULL);
	if (pgp == NULL || dtrace_prog_exec(g_dtp, pgp) < 0) {
		fprintf(stderr, "fuzz_records: %s\n", dtrace_errmsg(g_dtp));
		abort();
	}
	FILE *devnull = fopen("/dev/null", "w");
	if (devnull == NULL)
		abort();
	dtrace_set_output(g_dtp, devnull);
	dtrace_handle_error(g_dtp, on_error, NULL);
	/* A run time without BPF: state word, wall clock offset, speculations. */
	struct dt_runtime *rt = calloc(1, sizeof(*rt));
	if (rt == NULL)
		abort();
	rt->cpuinfo_fd = -1;
	rt->ps.ncpus = 2;
	rt->state = &g_state;
	rt->walloff = &g_walloff;
	g_dtp->cons->rt = rt;
	g_spec_size = DT_SPEC_AREA_SIZE(NSPEC);
	g_spec_area = calloc(1, g_spec_size);
	if (g_spec_area == NULL)
		abort();
	return 0;
}

/* The probe a record of description `rd` would carry. */
static uint32_t probe_of(const struct dt_rdesc *rd, uint8_t pick)
{
	for (size_t i = 0; !rd->internal && i < g_dtp->descs->cdescs.n; i++) {
		const struct dt_cdesc *cd = g_dtp->descs->cdescs.v[i];
		if (cd->clause == rd->clause && cd->nprobes > 0)
			return cd->probes[pick % cd->nprobes]->id;
	}
	return pick;
}

static void feed(dtrace_hdl_t *dtp, uint8_t mode, uint8_t desc, const uint8_t *p, size_t len)
{
	size_t size = len;
	uint8_t *rec;

	if ((mode & 3) == 0) {
		rec = malloc(size ? size : 1);
		if (rec == NULL)
			return;
		memcpy(rec, p, len);
	} else {
		const struct dt_rdesc *rd = dtp->descs->rdescs.v[desc % dtp->descs->rdescs.n];
		struct dt_rec_hdr h = { .desc = rd->id, .prid = probe_of(rd, desc) };
		size_t extra = len > 16 ? len - 16 : 0;

		memcpy((char *)&h + 8, p, len < 16 ? len : 16);
		size = sizeof(h) + extra;
		if ((mode & 3) == 1 && size < rd->size)
			size = rd->size;
		rec = calloc(1, size);
		if (rec == NULL)
			return;
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), p + (len - extra), extra);
	}
	dtrace_setopt(dtp, "oformat", (mode & 4) ? "json" : "text");
	dtrace_handle_record(dtp, (mode & 8) ? on_record : NULL, NULL);
	g_skip = (mode & 16) != 0;
	dtp->core->opts.quiet = (mode & 32) != 0;
	dt_print_record(dtp->cons, rec, size);
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dtrace_hdl_t *dtp = g_dtp;

	/* Every input starts from the same consumer state. */
	dt_spec_close(dtp->cons);
	memset(g_spec_area, 0, g_spec_size);
	if (dt_spec_init_area(dtp->cons, g_spec_area, g_spec_size) < 0)
		abort();
	dtp->cons->exited = false;
	dtp->cons->exit_status = 0;
	dtp->cons->cb_aborted = false;
	dtp->cons->printed_header = false;
	dtp->core->opts.aggsortkey = false;
	g_state = DT_STATE_ACTIVE;

	while (size >= 4) {
		uint8_t mode = data[0], desc = data[1];
		size_t len = (size_t)data[2] | (size_t)data[3] << 8;
		data += 4, size -= 4;
		if (len > size)
			len = size;
		if ((mode & 3) == 3)
			dt_spec_pass(dtp->cons);
		else
			feed(dtp, mode, desc, data, len);
		data += len, size -= len;
	}
	g_state = DT_STATE_DRAINING;
	dt_spec_pass(dtp->cons);
	return 0;
}
