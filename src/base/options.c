/*
 * The option table: DTrace's option names, classes (compile-time, run-time,
 * dynamic run-time), defaults and value rules (dt_options.c in DTrace), and
 * the few options of our own (oformat, fbtmech).
 */
#include "base/options.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/core.h"
#include "base/optval.h"

enum optclass {
	OC_COMPILE,	/* compile-time: not readable with dtrace_getopt() in DTrace */
	OC_RUNTIME,	/* fixed once tracing starts */
	OC_DYNAMIC,	/* may change while tracing (setopt()) */
};

enum optkind {
	OK_CFLAG,	/* a compiler flag: takes no value */
	OK_CFLAG_OFF,	/* kdefs/udefs: clear the flag, no value */
	OK_ANYFLAG,	/* set whatever the value */
	OK_RTFLAG,	/* run-time boolean (dt_optval_flag) */
	OK_RTINT,	/* run-time integer (dt_optval_flag); unset restores the default */
	OK_SIZE,	/* bytes; no value means 0 */
	OK_STRSIZE,
	OK_CLAMPSIZE,	/* printsize/pcapsize: out of range means the default; 8-aligned */
	OK_LOCKMEM,
	OK_PREALLOC,
	OK_RATE,	/* interval in ns; no value means 0 */
	OK_WORD,	/* one of a list of words, stored as its value */
	OK_OURWORD,	/* one of a list of words, stored as a string (our options) */
	OK_ATOI,	/* atoi() at least `lo` */
	OK_IREGS,
	OK_STRING,	/* a path or name */
	OK_CPPARG,	/* define/undef/incdir: one cpp argument */
	OK_CPPARGS,	/* cppargs: blank-separated cpp arguments */
	OK_CPPHDRS,	/* cpphdrs: cpp's -H */
	OK_LIBDIR,
	OK_TYPEFILE,	/* ctypes/dtypes: a file opened now, written after each compile */
	OK_AMIN,
	OK_VERSION,
};

struct word {
	const char *word;
	int64_t value;
};

struct optdef {
	const char *name;
	enum optkind kind;
	enum optclass cls;
	size_t off;		/* in struct dt_options */
	bool restricted;	/* refused from #pragma D option: matters before compiling */
	int64_t aux;		/* OK_RTINT: default; OK_ATOI: minimum; OK_CLAMPSIZE: maximum */
	const char *prefix;	/* OK_CPPARG: the cpp flag */
	const struct word *words;	/* OK_WORD/OK_OURWORD, ending with a NULL word */
	bool nocase;		/* OK_WORD: compared ignoring case */
};

#define O(f) offsetof(struct dt_options, f)
#define CT OC_COMPILE
#define RT OC_RUNTIME
#define DRT OC_DYNAMIC

static const struct word w_bufpolicy[] = { { "ring", DT_BUFPOLICY_RING },
	{ "fill", DT_BUFPOLICY_FILL }, { "switch", DT_BUFPOLICY_SWITCH }, { NULL, 0 } };
static const struct word w_bufresize[] = { { "auto", DT_BUFRESIZE_AUTO },
	{ "manual", DT_BUFRESIZE_MANUAL }, { NULL, 0 } };
static const struct word w_linkmode[] = { { "kernel", DT_LINK_KERNEL },
	{ "dynamic", DT_LINK_DYNAMIC }, { "static", DT_LINK_STATIC }, { NULL, 0 } };
static const struct word w_linktype[] = { { "elf", DT_LTYP_ELF }, { "dof", DT_LTYP_DOF },
	{ NULL, 0 } };
static const struct word w_evaltime[] = { { "exec", DT_EVAL_EXEC },
	{ "preinit", DT_EVAL_PREINIT }, { "postinit", DT_EVAL_POSTINIT },
	{ "main", DT_EVAL_MAIN }, { NULL, 0 } };
/* -Xa, -Xc and -Xt all mean ISO C with extensions to DTrace's cpp; -Xs is K&R. */
static const struct word w_stdc[] = { { "a", DT_STDC_XA }, { "c", DT_STDC_XA },
	{ "t", DT_STDC_XA }, { "s", DT_STDC_XS }, { NULL, 0 } };
static const struct word w_debugassert[] = { { "mutexes", 1 }, { NULL, 0 } };
static const struct word w_xlate[] = { { "dynamic", 1 }, { "static", 0 }, { NULL, 0 } };
static const struct word w_oformat[] = { { "text", 0 }, { "json", 1 }, { "folded", 2 },
	{ "pprof", 3 }, { "openmetrics", 4 }, { NULL, 0 } };
static const struct word w_fbtmech[] = { { "auto", 0 }, { "fentry", 1 },
	{ "kprobe_multi", 2 }, { "kprobe", 3 }, { NULL, 0 } };

static const struct optdef opts[] = {
	/* Compile-time options */
	{ "aggpercpu", OK_CFLAG, CT, O(aggpercpu) },
	{ "amin", OK_AMIN, CT },
	{ "argref", OK_CFLAG, CT, O(argref) },
	{ "core", OK_CFLAG, CT, O(core) },
	{ "cpp", OK_CFLAG, CT, O(cpp) },
	{ "cppargs", OK_CPPARGS, CT, 0, true },
	{ "cpphdrs", OK_CPPHDRS, CT, 0, true },
	{ "cpppath", OK_STRING, CT, O(cpppath), true },
	{ "ctypes", OK_TYPEFILE, CT, O(cdefs_fd) },
	{ "ctfpath", OK_STRING, CT, O(ctfpath), true },
	{ "defaultargs", OK_CFLAG, CT, O(defaultargs) },
	{ "debug", OK_CFLAG, CT, O(debug) },
	{ "debugassert", OK_WORD, CT, 0, .words = w_debugassert },
	{ "define", OK_CPPARG, CT, 0, true, .prefix = "-D" },
	{ "disasm", OK_ATOI, CT, O(disasm), .aux = 0 },
	{ "droptags", OK_ANYFLAG, CT, O(droptags) },
	{ "dtypes", OK_TYPEFILE, CT, O(ddefs_fd) },
	{ "empty", OK_CFLAG, CT, O(empty) },
	{ "errtags", OK_CFLAG, CT, O(errtags) },
	{ "evaltime", OK_WORD, CT, O(evaltime), .words = w_evaltime },
	{ "incdir", OK_CPPARG, CT, 0, true, .prefix = "-I" },
	{ "iregs", OK_IREGS, CT, O(iregs) },
	{ "kdefs", OK_CFLAG_OFF, CT, O(knodefs) },
	{ "knodefs", OK_CFLAG, CT, O(knodefs) },
	{ "late", OK_WORD, CT, 0, .words = w_xlate },
	{ "lazyload", OK_ANYFLAG, CT, O(lazyload) },
	{ "ldpath", OK_STRING, CT, O(ldpath), true },
	{ "libdir", OK_LIBDIR, CT },
	{ "linkmode", OK_WORD, CT, O(linkmode), .words = w_linkmode },
	{ "linktype", OK_WORD, CT, O(linktype), .words = w_linktype, .nocase = true },
	{ "linknommap", OK_ANYFLAG, CT, O(linknommap) },
	{ "modpath", OK_STRING, CT, O(modpath), true },
	{ "nolibs", OK_CFLAG, CT, O(nolibs) },
	{ "nooptimize", OK_CFLAG, CT, O(nooptimize) },
	{ "pgmax", OK_ATOI, CT, O(pgmax), .aux = 0 },
	{ "preallocate", OK_PREALLOC, CT },
	{ "procfspath", OK_STRING, CT, O(procfspath), true },
	{ "pspec", OK_CFLAG, CT, O(pspec) },
	{ "stdc", OK_WORD, CT, O(stdc), true, .words = w_stdc },
	{ "strip", OK_CFLAG, CT, O(strip) },
	{ "syslibdir", OK_STRING, CT, O(syslibdir) },
	{ "sysslice", OK_STRING, CT, O(sysslice) },
	{ "tree", OK_ATOI, CT, O(tree), .aux = 1 },
	{ "tregs", OK_ATOI, CT, O(tregs), .aux = 1 },
	{ "udefs", OK_CFLAG_OFF, CT, O(unodefs) },
	{ "undef", OK_CPPARG, CT, 0, true, .prefix = "-U" },
	{ "unodefs", OK_CFLAG, CT, O(unodefs) },
	{ "useruid", OK_ATOI, CT, O(useruid), .aux = 0 },
	{ "verbose", OK_CFLAG, CT, O(verbose) },
	{ "version", OK_VERSION, CT },
	{ "zdefs", OK_CFLAG, CT, O(zdefs) },
	/* Run-time options */
	{ "aggsize", OK_SIZE, RT, O(aggsize) },
	{ "bpflog", OK_RTFLAG, RT, O(bpflog) },
	{ "bpflogsize", OK_SIZE, RT, O(bpflogsize) },
	{ "bufsize", OK_SIZE, RT, O(bufsize) },
	{ "bufpolicy", OK_WORD, RT, O(bufpolicy), .words = w_bufpolicy },
	{ "bufresize", OK_WORD, RT, O(bufresize), .words = w_bufresize },
	{ "cleanrate", OK_RATE, RT, O(cleanrate) },
	{ "cpu", OK_RTINT, RT, O(cpu), .aux = -1 },
	{ "destructive", OK_RTFLAG, RT, O(destructive) },
	{ "dynvarsize", OK_SIZE, RT, O(dynvarsize) },
	{ "grabanon", OK_RTFLAG, RT, O(grabanon) },
	{ "jstackframes", OK_RTINT, RT, O(jstackframes), .aux = 50 },
	{ "jstackstrsize", OK_SIZE, RT, O(jstackstrsize) },
	{ "lockmem", OK_LOCKMEM, RT, O(lockmem), true },
	{ "maxframes", OK_RTINT, RT, O(maxframes), .aux = 127 },
	{ "nspec", OK_RTINT, RT, O(nspec), .aux = 1 },
	{ "pcapsize", OK_CLAMPSIZE, RT, O(pcapsize), .aux = 65535 },
	{ "scratchsize", OK_SIZE, RT, O(scratchsize) },
	{ "specsize", OK_SIZE, RT, O(specsize) },
	{ "stackframes", OK_RTINT, RT, O(stackframes), .aux = 20 },
	{ "statusrate", OK_RATE, RT, O(statusrate) },
	{ "strsize", OK_STRSIZE, RT, O(strsize) },
	{ "ustackframes", OK_RTINT, RT, O(ustackframes), .aux = 100 },
	{ "noresolve", OK_RTFLAG, RT, O(noresolve) },
	{ "oformat", OK_OURWORD, RT, O(oformat), .words = w_oformat },
	{ "fbtmech", OK_OURWORD, RT, O(fbtmech), .words = w_fbtmech },
	/* Dynamic run-time options */
	{ "aggrate", OK_RATE, DRT, O(aggrate) },
	{ "aggsortkey", OK_RTFLAG, DRT, O(aggsortkey) },
	{ "aggsortkeypos", OK_RTINT, DRT, O(aggsortkeypos), .aux = 0 },
	{ "aggsortpos", OK_RTINT, DRT, O(aggsortpos), .aux = 0 },
	{ "aggsortrev", OK_RTFLAG, DRT, O(aggsortrev) },
	{ "flowindent", OK_RTFLAG, DRT, O(flowindent) },
	{ "quiet", OK_RTFLAG, DRT, O(quiet) },
	{ "quietresize", OK_RTFLAG, DRT, O(quietresize) },
	{ "rawbytes", OK_RTFLAG, DRT, O(rawbytes) },
	{ "stackindent", OK_RTINT, DRT, O(stackindent), .aux = 14 },
	{ "switchrate", OK_RATE, DRT, O(switchrate) },
	{ "printsize", OK_CLAMPSIZE, DRT, O(printsize), .aux = 65536 },
};

#define DEF_PRINTSIZE 8192
#define DEF_PCAPSIZE 128

void dt_options_init(struct dt_options *o)
{
	memset(o, 0, sizeof(*o));
	/*
	 * One ring shared by all CPUs; the consumer is woken when an eighth
	 * of it is waiting.  Its pages are mapped (and so resident) from the
	 * start, which is why it is 2m and not DTrace's 4m per CPU.
	 */
	o->bufsize = 2 << 20;
	o->aggsize = 4 << 20;
	o->dynvarsize = 1 << 20;
	o->specsize = 32 << 10;
	o->strsize = 256;
	o->nspec = 1;
	o->scratchsize = 256;
	o->switchrate = 1000000000;	/* 1hz */
	o->statusrate = 1000000000;
	o->aggrate = 1000000000;
	o->cleanrate = 10000000;	/* 101hz in DTrace; close enough for a cleaner */
	o->stackframes = 20;
	o->ustackframes = 100;
	o->maxframes = 127;
	o->jstackframes = 50;
	o->jstackstrsize = 512;
	o->stackindent = 14;
	o->cpu = -1;
	o->evaltime = DT_EVAL_POSTINIT;	/* DTrace's default */
	o->tregs = 8;
	o->iregs = 8;
	o->bufpolicy = DT_BUFPOLICY_SWITCH;
	o->printsize = DEF_PRINTSIZE;
	o->pcapsize = DEF_PCAPSIZE;
	o->bpflogsize = 16 << 20;
	o->lockmem = -1;
	o->vmax = DT_VERSION_LATEST;
	o->cdefs_fd = o->ddefs_fd = -1;
}

void dt_options_fini(struct dt_options *o)
{
	char **strs[] = { &o->oformat, &o->cpppath, &o->fbtmech, &o->ldpath, &o->ctfpath,
			  &o->modpath, &o->procfspath, &o->syslibdir, &o->sysslice };

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	for (int i = 0; i < o->ncppargs; i++)
		free(o->cppargs[i]);
	free(o->cppargs);
	for (int i = 0; i < o->nlibdirs; i++)
		free(o->libdirs[i]);
	free(o->libdirs);
	if (o->cdefs_fd >= 0)
		close(o->cdefs_fd);
	if (o->ddefs_fd >= 0)
		close(o->ddefs_fd);
}

static const struct optdef *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		if (strcmp(opts[i].name, name) == 0)
			return &opts[i];
	}
	return NULL;
}

bool dt_option_is_runtime(const char *name)
{
	const struct optdef *d = find(name);

	return d != NULL && d->cls == OC_RUNTIME;
}

static int badval(struct dt_core *core)
{
	return dt_set_error(core, -EINVAL, "Invalid value for specified option");
}

static int nomem(struct dt_core *core)
{
	return dt_set_error(core, -ENOMEM, "Memory allocation failure");
}

/* Add prefix + value to a list option (-D/-U/-I arguments, -L directories). */
static int append(struct dt_core *core, char ***v, int *n, const char *prefix, const char *value)
{
	char **nv = realloc(*v, sizeof(char *) * (size_t)(*n + 1));
	char *s = NULL;

	if (nv != NULL)
		*v = nv;
	if (nv == NULL || asprintf(&s, "%s%s", prefix, value) < 0)
		return nomem(core);
	(*v)[(*n)++] = s;
	return 0;
}

static int set_string(struct dt_core *core, char **sp, const char *value)
{
	char *s = strdup(value);

	if (s == NULL)
		return nomem(core);
	free(*sp);
	*sp = s;
	return 0;
}

static const struct word *find_word(const struct optdef *d, const char *value)
{
	for (const struct word *w = d->words; value != NULL && w->word != NULL; w++) {
		if ((d->nocase ? strcasecmp(w->word, value) : strcmp(w->word, value)) == 0)
			return w;
	}
	return NULL;
}

/*
 * version=M.m[.u]: a D version DTrace defines, no later than this
 * compiler's or than a version asked for before (versions only go down).
 */
static int set_version(struct dt_core *core, const char *value)
{
	uint32_t v;

	if (value == NULL)
		return badval(core);
	if (dt_optval_version(value, &v) < 0)
		return dt_set_error(core, -EINVAL, "Version is not properly formatted or is too large");
	if (!dt_version_defined(v))
		return dt_set_error(core, -ENOTSUP, "Requested version is not supported by compiler");
	if (v > core->opts.vmax)
		return dt_set_error(core, -EINVAL, "Requested version conflicts with earlier setting");
	core->opts.vmax = v;
	return 0;
}

static int set_sizes(struct dt_core *core, const struct optdef *d, const char *value,
		     int64_t *p)
{
	int64_t v = 0;

	if (value != NULL && dt_optval_size(value, &v) < 0)
		return badval(core);
	switch (d->kind) {
	case OK_STRSIZE:
		/* The smallest string holds DTrace's two-byte NULL-string mark. */
		if (value == NULL || v < 2)
			return badval(core);
		if (v > UINT32_MAX)
			return dt_set_error(core, -EOVERFLOW, "%s", strerror(EOVERFLOW));
		/* Strings live in BPF scratch and maps: larger ones cannot be loaded. */
		if (v > 65536)
			return badval(core);
		core->types.t_string->size = (uint32_t)v;
		break;
	case OK_CLAMPSIZE:
		if (value == NULL || v <= 0 || v > d->aux)
			v = d->off == O(printsize) ? DEF_PRINTSIZE : DEF_PCAPSIZE;
		v = (v + 7) & ~(int64_t)7;
		break;
	default:
		break;
	}
	*p = v;
	return 0;
}

static int set_value(struct dt_core *core, const struct optdef *d, const char *value)
{
	struct dt_options *o = &core->opts;
	char *base = (char *)o;
	int64_t *ip = (int64_t *)(base + d->off);
	bool *bp = (bool *)(base + d->off);
	int64_t v;
	int on;

	switch (d->kind) {
	case OK_CFLAG:
	case OK_CFLAG_OFF:
		if (value != NULL)
			return badval(core);
		*bp = d->kind == OK_CFLAG;
		return 0;
	case OK_ANYFLAG:
		*bp = true;
		return 0;
	case OK_RTFLAG:
		if ((on = dt_optval_flag(value, &v)) < 0)
			return badval(core);
		*bp = on == 1;
		return 0;
	case OK_RTINT:
		if ((on = dt_optval_flag(value, &v)) < 0)
			return badval(core);
		*ip = on == 1 ? v : d->aux;
		return 0;
	case OK_SIZE:
	case OK_STRSIZE:
	case OK_CLAMPSIZE:
		return set_sizes(core, d, value, ip);
	case OK_LOCKMEM:
		if (value == NULL)
			return badval(core);
		/* As DTrace: a size it cannot read leaves the limit alone, silently. */
		if (strcmp(value, "unlimited") == 0)
			*ip = INT64_MAX;
		else if (dt_optval_size(value, &v) == 0)
			*ip = v;
		return 0;
	case OK_PREALLOC:
		if (value == NULL || dt_optval_size(value, &v) < 0)
			return badval(core);
		return 0;
	case OK_RATE:
		v = 0;
		if (value != NULL && dt_optval_rate(value, &v) < 0)
			return badval(core);
		*ip = v;
		return 0;
	case OK_WORD:
	case OK_OURWORD: {
		const struct word *w = find_word(d, value);
		if (w == NULL)
			return badval(core);
		if (d->kind == OK_OURWORD)
			return set_string(core, (char **)(base + d->off), w->word);
		if (d->off != 0)
			*ip = w->value;
		return 0;
	}
	case OK_ATOI:
		if (value == NULL || (v = atoi(value)) < d->aux)
			return badval(core);
		*ip = v;
		return 0;
	case OK_IREGS:
		/* DTrace generates code for exactly its 8 registers: fewer cannot do. */
		if (value == NULL || (v = atoi(value)) <= 0 || v > 8)
			return badval(core);
		if (v < 8)
			return dt_set_error(core, -ENOSPC, "Insufficient registers to generate code");
		*ip = v;
		return 0;
	case OK_STRING:
		if (value == NULL)
			return badval(core);
		return set_string(core, (char **)(base + d->off), value);
	case OK_CPPARG:
		if (value == NULL)
			return badval(core);
		return append(core, &o->cppargs, &o->ncppargs, d->prefix, value);
	case OK_CPPARGS: {
		if (value == NULL)
			return badval(core);
		char *copy = strdup(value), *save = NULL;
		if (copy == NULL)
			return nomem(core);
		int rc = 0;
		for (char *a = strtok_r(copy, "\f\n\r\t\v ", &save); a != NULL && rc == 0;
		     a = strtok_r(NULL, "\f\n\r\t\v ", &save))
			rc = append(core, &o->cppargs, &o->ncppargs, "", a);
		free(copy);
		return rc;
	}
	case OK_CPPHDRS:
		if (value != NULL)
			return badval(core);
		return append(core, &o->cppargs, &o->ncppargs, "", "-H");
	case OK_LIBDIR:
		if (value == NULL)
			return badval(core);
		return append(core, &o->libdirs, &o->nlibdirs, "", value);
	case OK_TYPEFILE: {
		if (value == NULL)
			return badval(core);
		int fd = open(value, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0)
			return dt_set_error(core, -errno, "%s", strerror(errno));
		int *fp = (int *)(base + d->off);
		if (*fp >= 0)
			close(*fp);
		*fp = fd;
		return 0;
	}
	case OK_AMIN: {
		struct dt_attr a;
		if (value == NULL || dt_str2attr(value, &a) < 0)
			return badval(core);
		o->amin = a;
		o->amin_set = true;
		return 0;
	}
	case OK_VERSION:
		return set_version(core, value);
	}
	return badval(core);
}

int dt_option_set_from(struct dt_core *core, const char *name, const char *value,
		       bool from_program)
{
	const struct optdef *d = find(name);

	if (d == NULL)
		return dt_set_error(core, -ENOENT, "Invalid option name");
	/* Only dynamic options may change once tracing has started. */
	if (d->cls == OC_RUNTIME && core->active)
		return dt_set_error(core, -EBUSY, "Operation illegal when tracing is active");
	if (from_program && d->restricted) {
		/* DTrace checks the value's presence first, then where it comes from. */
		bool needs_value = d->kind != OK_CPPHDRS;
		if ((value == NULL) == needs_value)
			return badval(core);
		return dt_set_error(core, -EINVAL, "Option cannot be used from within a D program");
	}
	return set_value(core, d, value);
}

int dt_option_set(struct dt_core *core, const char *name, const char *value)
{
	return dt_option_set_from(core, name, value, false);
}

int dt_option_get(struct dt_core *core, const char *name, int64_t *valp)
{
	const struct optdef *d = find(name);
	const char *base = (const char *)&core->opts;

	if (d == NULL)
		return dt_set_error(core, -ENOENT, "Invalid option name");
	switch (d->kind) {
	case OK_CFLAG:
	case OK_CFLAG_OFF:
	case OK_ANYFLAG:
	case OK_RTFLAG:
		*valp = *(const bool *)(base + d->off);
		return 0;
	case OK_OURWORD:
		for (const struct word *w = d->words; w->word != NULL; w++) {
			const char *s = *(char *const *)(base + d->off);
			if (s != NULL && strcmp(s, w->word) == 0) {
				*valp = w->value;
				return 0;
			}
		}
		*valp = 0;
		return 0;
	case OK_RTINT:
	case OK_SIZE:
	case OK_STRSIZE:
	case OK_CLAMPSIZE:
	case OK_LOCKMEM:
	case OK_RATE:
	case OK_ATOI:
	case OK_IREGS:
		*valp = *(const int64_t *)(base + d->off);
		return 0;
	case OK_WORD:
		if (d->off == 0)
			break;
		*valp = *(const int64_t *)(base + d->off);
		return 0;
	default:
		break;
	}
	return dt_set_error(core, -EINVAL, "option %s has no integer value", name);
}
