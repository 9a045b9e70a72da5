/* Opening and closing a handle; errors; options through the public API. */
#include <ctype.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/object.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "bpf/features.h"
#include "bpf/runtime.h"
#include "compiler/ident.h"
#include "compiler/kdebug.h"
#include "compiler/program.h"
#include "consumer/agg.h"
#include "consumer/consume.h"
#include "consumer/oformat.h"
#include "consumer/proc_follow.h"
#include "consumer/report.h"
#include "consumer/symbolize.h"
#include "lib/dt_impl.h"
#include "providers/providers.h"
#include "providers/uproc.h"

/* libbpf's messages are replaced by ours; DTRACE_DEBUG shows them. */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The handle and its parts, in one allocation (the handle first: freeing it frees all). */
struct hdl_parts {
	struct dtrace_hdl hdl;
	struct dt_core core;
	struct dt_registry reg;
	struct dt_compiler cc;
	struct dt_descs descs;
	struct dt_consumer cons;
	struct dt_procs procs;
};

/* Each part points to the parts it may use, and to nothing else. */
static dtrace_hdl_t *new_handle(void)
{
	struct hdl_parts *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return NULL;
	h->hdl = (struct dtrace_hdl){ .core = &h->core, .reg = &h->reg, .cc = &h->cc,
				      .descs = &h->descs, .cons = &h->cons, .procs = &h->procs };
	h->reg.core = &h->core;
	h->reg.procs = &h->procs;
	h->cc.core = &h->core;
	h->cc.reg = &h->reg;
	h->cc.descs = &h->descs;
	h->cc.procs = &h->procs;
	h->cons.core = &h->core;
	h->cons.descs = &h->descs;
	h->cons.reg = &h->reg;
	h->cons.procs = &h->procs;
	h->cons.hdl = &h->hdl;
	h->procs.core = &h->core;
	return &h->hdl;
}

dtrace_hdl_t *dtrace_open(int flags, int *errp)
{
	dtrace_hdl_t *dtp = new_handle();

	(void)flags;
	if (dtp == NULL) {
		if (errp)
			*errp = ENOMEM;
		return NULL;
	}
	if (getenv("DTRACE_DEBUG") == NULL)
		libbpf_set_print(libbpf_quiet);
	dt_options_init(&dtp->core->opts);
	/* As DTrace, the environment can ask for debugging messages before any option. */
	dtp->core->opts.debug = getenv("DTRACE_DEBUG") != NULL;
	dtp->cons->fp = stdout;
	dtp->cons->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	dtp->cons->testing = getenv("_DTRACE_TESTING") != NULL;
	dt_features_probe(&dtp->core->features);
	if (dt_typetab_init(&dtp->core->types) < 0 || dt_probes_init(dtp->reg, dt_providers, dt_nproviders) < 0) {
		dtrace_close(dtp);
		if (errp)
			*errp = ENOMEM;
		return NULL;
	}
	/* DTRACE_OPT_<NAME> environment variables set options, as DTrace does. */
	extern char **environ;
	for (char **e = environ; e && *e; e++) {
		if (strncmp(*e, "DTRACE_OPT_", 11) != 0)
			continue;
		const char *eq = strchr(*e, '=');
		if (eq == NULL)
			continue;
		char name[64];
		size_t n = (size_t)(eq - (*e + 11));
		if (n >= sizeof(name))
			continue;
		for (size_t i = 0; i < n; i++)
			name[i] = (char)tolower((unsigned char)(*e)[11 + i]);
		name[n] = '\0';
		dt_option_set(dtp->core, name, eq + 1);
	}
	dtp->core->err = 0;
	dtp->core->errmsg[0] = '\0';
	dt_dprintf(dtp->core, "detected %ld CPUs online\n", sysconf(_SC_NPROCESSORS_ONLN));
	return dtp;
}

void dtrace_close(dtrace_hdl_t *dtp)
{
	if (dtp == NULL)
		return;
	dt_runtime_destroy(dtp);
	dt_proc_release_all(dtp->procs);
	dt_proc_follow_end(dtp->cons);
	dt_uprocs_free(dtp->reg);
	dt_probes_fini(dtp->reg);
	dt_pattr_fini(dtp->reg);
	dt_idents_fini(dtp->cc);
	dt_agg_fini(dtp->cons);
	dt_syms_free(dtp->cons);
	dt_consume_fini(dtp->cons);
	for (size_t i = 0; i < dtp->cc->progs.n; i++) {
		dtrace_prog_t *pgp = dtp->cc->progs.v[i];
		for (size_t j = 0; j < pgp->stmts.n; j++) {
			dt_vec_free(&pgp->stmts.v[j]->probes);
			dt_vec_free(&pgp->stmts.v[j]->probe_pdesc);
		}
		free(pgp->stmts.v);
		free(pgp);
	}
	dt_vec_free(&dtp->cc->progs);
	dt_vec_free(&dtp->cc->stmts);
	dt_descs_free(dtp->descs);
	dt_proc_fini(dtp->procs);
	dt_vec_free(&dtp->cc->dynvars);
	bo_object_free(dtp->cc->obj);
	dt_typetab_fini(&dtp->core->types);
	dt_kdebug_close(dtp->cc->kdebug);
	dt_options_fini(&dtp->core->opts);
	for (int i = 0; i < dtp->cc->argc; i++)
		free(dtp->cc->argv[i]);
	free(dtp->cc->argv);
	if (dtp->cons->wake_fd >= 0)
		close(dtp->cons->wake_fd);
	dt_arena_free(&dtp->core->arena);
	free(dtp);
}

const char *dtrace_errmsg(const dtrace_hdl_t *dtp)
{
	return dtp->core->errmsg;
}

int dtrace_errno(const dtrace_hdl_t *dtp)
{
	return dtp->core->err;
}

int dtrace_setopt(dtrace_hdl_t *dtp, const char *name, const char *value)
{
	return dt_option_set(dtp->core, name, value);
}

int dtrace_getopt(dtrace_hdl_t *dtp, const char *name, int64_t *valp)
{
	const struct dt_options *o = &dtp->core->opts;
	static const struct {
		const char *name;
		size_t off;
	} ints[] = {
		{ "bufsize", offsetof(struct dt_options, bufsize) },
		{ "aggsize", offsetof(struct dt_options, aggsize) },
		{ "dynvarsize", offsetof(struct dt_options, dynvarsize) },
		{ "strsize", offsetof(struct dt_options, strsize) },
		{ "switchrate", offsetof(struct dt_options, switchrate) },
		{ "nspec", offsetof(struct dt_options, nspec) },
		{ "specsize", offsetof(struct dt_options, specsize) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		if (strcmp(ints[i].name, name) == 0) {
			*valp = *(const int64_t *)((const char *)o + ints[i].off);
			return 0;
		}
	}
	if (strcmp(name, "quiet") == 0) {
		*valp = o->quiet;
		return 0;
	}
	if (strcmp(name, "flowindent") == 0) {
		*valp = o->flowindent;
		return 0;
	}
	return dt_option_get(dtp->core, name, valp);
}

int dtrace_set_macro_args(dtrace_hdl_t *dtp, int argc, char *const argv[])
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));

	if (v == NULL)
		return dt_set_error(dtp->core, -ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (v[i] == NULL) {
			while (i-- > 0)
				free(v[i]);
			free(v);
			return dt_set_error(dtp->core, -ENOMEM, "out of memory");
		}
	}
	for (int i = 0; i < dtp->cc->argc; i++)
		free(dtp->cc->argv[i]);
	free(dtp->cc->argv);
	dtp->cc->argv = v;
	dtp->cc->argc = argc;
	return 0;
}

void dtrace_set_output(dtrace_hdl_t *dtp, FILE *fp)
{
	dtp->cons->fp = fp;
}

int dtrace_oformat(const dtrace_hdl_t *dtp)
{
	return (int)dt_oformat(dtp->cons);
}

int dtrace_set_format_file(dtrace_hdl_t *dtp, const char *path)
{
	return dt_oformat_set_file(dtp->cons, path);
}

int dtrace_handle_record(dtrace_hdl_t *dtp, dtrace_record_f *func, void *arg)
{
	dtp->cons->rec_fn = func;
	dtp->cons->rec_arg = arg;
	return 0;
}

int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_drop_f *func, void *arg)
{
	dtp->cons->drop_fn = func;
	dtp->cons->drop_arg = arg;
	return 0;
}

int dtrace_handle_error(dtrace_hdl_t *dtp, dtrace_error_f *func, void *arg)
{
	dtp->cons->err_fn = func;
	dtp->cons->err_arg = arg;
	return 0;
}

const char *dtrace_version(void)
{
	return DTRACE_VERSION;
}

const char *dtrace_d_version(void)
{
	return DT_D_VERSION;
}

void dtrace_wake(dtrace_hdl_t *dtp)
{
	uint64_t one = 1;

	if (dtp->cons->wake_fd >= 0 && write(dtp->cons->wake_fd, &one, sizeof(one)) < 0) {
		/* Nothing to do: the sleeper wakes at the next switchrate tick. */
	}
}
