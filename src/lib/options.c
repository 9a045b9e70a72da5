/* Option table and parsing, with DTrace's names, defaults and value rules. */
#include "lib/options.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/dt_impl.h"

enum optkind {
	OK_FLAG,	/* presence turns it on; a value must be an integer */
	OK_SIZE,	/* bytes with k/m/g/t suffixes */
	OK_RATE,	/* time or frequency, stored in ns */
	OK_INT,		/* plain integer */
	OK_STRING,
	OK_BUFPOLICY,
	OK_LIBDIR,	/* libdir: a directory of D libraries (-L) */
	OK_CPPARG,	/* define/undef/incdir: a cpp argument */
	OK_IGNORED,	/* accepted for compatibility; no effect in this implementation */
	OK_VERSION,	/* the D language version asked for: at most ours */
};

struct optdef {
	const char *name;
	enum optkind kind;
	size_t off;		/* offset in struct dt_options */
	bool dynamic;		/* may change while tracing (setopt) */
	const char *cppflag;
};

#define O(f) offsetof(struct dt_options, f)

static const struct optdef opts[] = {
	/* Compile-time */
	{ "errtags", OK_FLAG, O(errtags) },
	{ "droptags", OK_FLAG, O(droptags) },
	{ "defaultargs", OK_FLAG, O(defaultargs) },
	{ "zdefs", OK_FLAG, O(zdefs) },
	{ "cpp", OK_FLAG, O(cpp) },
	{ "knodefs", OK_FLAG, O(knodefs) },
	{ "unodefs", OK_FLAG, O(unodefs) },
	{ "verbose", OK_FLAG, O(verbose) },
	{ "cpppath", OK_STRING, O(cpppath) },
	{ "define", OK_CPPARG, 0, false, "-D" },
	{ "undef", OK_CPPARG, 0, false, "-U" },
	{ "incdir", OK_CPPARG, 0, false, "-I" },
	{ "cppargs", OK_IGNORED }, { "cpphdrs", OK_IGNORED }, { "amin", OK_IGNORED },
	{ "argref", OK_IGNORED }, { "core", OK_IGNORED }, { "ctypes", OK_IGNORED },
	{ "ctfpath", OK_IGNORED }, { "debug", OK_IGNORED }, { "debugassert", OK_IGNORED },
	{ "disasm", OK_IGNORED }, { "dtypes", OK_IGNORED }, { "empty", OK_FLAG, O(empty) },
	{ "evaltime", OK_IGNORED }, { "iregs", OK_IGNORED }, { "kdefs", OK_IGNORED },
	{ "late", OK_IGNORED }, { "lazyload", OK_IGNORED }, { "ldpath", OK_IGNORED },
	{ "libdir", OK_LIBDIR }, { "linkmode", OK_IGNORED }, { "linktype", OK_IGNORED },
	{ "linknommap", OK_IGNORED }, { "modpath", OK_IGNORED }, { "nolibs", OK_IGNORED },
	{ "pgmax", OK_IGNORED }, { "preallocate", OK_IGNORED }, { "procfspath", OK_IGNORED },
	{ "pspec", OK_IGNORED }, { "stdc", OK_IGNORED }, { "strip", OK_IGNORED },
	{ "syslibdir", OK_IGNORED }, { "sysslice", OK_IGNORED }, { "tree", OK_IGNORED },
	{ "tregs", OK_INT, O(tregs) }, { "udefs", OK_IGNORED }, { "useruid", OK_IGNORED },
	{ "version", OK_VERSION }, { "temporal", OK_IGNORED }, { "bufresize", OK_IGNORED },
	{ "lockmem", OK_IGNORED }, { "pcapsize", OK_IGNORED }, { "bpflog", OK_IGNORED },
	/* Run-time */
	{ "aggsize", OK_SIZE, O(aggsize) },
	{ "bufsize", OK_SIZE, O(bufsize) },
	{ "bufpolicy", OK_BUFPOLICY, O(bufpolicy) },
	{ "cleanrate", OK_RATE, O(cleanrate) },
	{ "cpu", OK_INT, O(cpu) },
	{ "destructive", OK_FLAG, O(destructive) },
	{ "dynvarsize", OK_SIZE, O(dynvarsize) },
	{ "grabanon", OK_FLAG, O(grabanon) },
	{ "jstackframes", OK_INT, O(jstackframes) },
	{ "jstackstrsize", OK_SIZE, O(jstackstrsize) },
	{ "maxframes", OK_INT, O(maxframes) },
	{ "nspec", OK_INT, O(nspec) },
	{ "scratchsize", OK_SIZE, O(scratchsize) },
	{ "specsize", OK_SIZE, O(specsize) },
	{ "stackframes", OK_INT, O(stackframes) },
	{ "statusrate", OK_RATE, O(statusrate) },
	{ "strsize", OK_SIZE, O(strsize) },
	{ "ustackframes", OK_INT, O(ustackframes) },
	{ "noresolve", OK_FLAG, O(noresolve) },
	{ "bpflogsize", OK_SIZE, O(bpflogsize) },
	{ "oformat", OK_STRING, O(oformat) },
	{ "fbtmech", OK_STRING, O(fbtmech) },
	/* Dynamic run-time */
	{ "aggrate", OK_RATE, O(aggrate), true },
	{ "aggsortkey", OK_FLAG, O(aggsortkey), true },
	{ "aggsortkeypos", OK_INT, O(aggsortkeypos), true },
	{ "aggsortpos", OK_INT, O(aggsortpos), true },
	{ "aggsortrev", OK_FLAG, O(aggsortrev), true },
	{ "aggpercpu", OK_FLAG, O(aggpercpu), true },
	{ "flowindent", OK_FLAG, O(flowindent), true },
	{ "quiet", OK_FLAG, O(quiet), true },
	{ "quietresize", OK_FLAG, O(quietresize), true },
	{ "rawbytes", OK_FLAG, O(rawbytes), true },
	{ "stackindent", OK_INT, O(stackindent), true },
	{ "switchrate", OK_RATE, O(switchrate), true },
	{ "printsize", OK_SIZE, O(printsize), true },
};

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
	o->aggsortpos = 0;
	o->aggsortkeypos = 0;
	o->stackframes = 20;
	o->ustackframes = 100;
	o->maxframes = 127;
	o->jstackframes = 50;
	o->jstackstrsize = 512;
	o->stackindent = 14;
	o->cpu = -1;
	o->tregs = 8;
	o->bufpolicy = DT_BUFPOLICY_SWITCH;
	o->printsize = 8192;
	o->bpflogsize = 16 << 20;
}

void dt_options_fini(struct dt_options *o)
{
	free(o->oformat);
	free(o->cpppath);
	free(o->fbtmech);
	for (int i = 0; i < o->ncppargs; i++)
		free(o->cppargs[i]);
	free(o->cppargs);
	for (int i = 0; i < o->nlibdirs; i++)
		free(o->libdirs[i]);
	free(o->libdirs);
}

int dt_parse_size(const char *s, int64_t *valp)
{
	size_t len = strlen(s);
	uint64_t mul = 1;
	char *end;

	if (len == 0)
		return -1;
	switch (s[len - 1]) {
	case 't': case 'T': mul <<= 10; /* fall through */
	case 'g': case 'G': mul <<= 10; /* fall through */
	case 'm': case 'M': mul <<= 10; /* fall through */
	case 'k': case 'K': mul <<= 10; break;
	default: break;
	}
	if (strtoll(s, NULL, 0) < 0)
		return -1;
	errno = 0;
	uint64_t v = strtoull(s, &end, 0);
	if (errno != 0 || end == s)
		return -1;
	if ((mul > 1 && end != &s[len - 1]) || (mul == 1 && *end != '\0'))
		return -1;
	if (v > (uint64_t)INT64_MAX / mul)
		return -1;
	*valp = (int64_t)(v * mul);
	return 0;
}

int dt_parse_rate(const char *s, int64_t *valp)
{
	static const struct {
		const char *name;
		int64_t mul;	/* 0: frequency */
	} sfx[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000 },
		{ "sec", 1000000000 }, { "m", 60000000000LL }, { "min", 60000000000LL },
		{ "h", 3600000000000LL }, { "hour", 3600000000000LL },
		{ "d", 86400000000000LL }, { "day", 86400000000000LL }, { "hz", 0 },
	};
	char *end;

	if (strtoll(s, NULL, 0) < 0)
		return -1;
	errno = 0;
	uint64_t v = strtoull(s, &end, 0);
	if (errno != 0 || end == s)
		return -1;
	int64_t mul = 1;
	if (*end != '\0') {
		size_t i;
		for (i = 0; i < ARRAY_SIZE(sfx); i++) {
			if (strcasecmp(sfx[i].name, end) == 0)
				break;
		}
		if (i == ARRAY_SIZE(sfx))
			return -1;
		mul = sfx[i].mul;
	}
	if (mul == 0)
		*valp = v ? (int64_t)(1000000000ULL / v) : 0;
	else if (v > (uint64_t)(INT64_MAX / mul))
		return -1;	/* more than 292 years of nanoseconds */
	else
		*valp = (int64_t)v * mul;
	return 0;
}

static const struct optdef *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		if (strcmp(opts[i].name, name) == 0)
			return &opts[i];
	}
	return NULL;
}

bool dt_option_is_dynamic(const char *name)
{
	const struct optdef *d = find(name);

	return d != NULL && d->dynamic;
}

static int badval(struct dtrace_hdl *dtp)
{
	return dt_set_error(dtp, -EINVAL, "Invalid value for specified option");
}

/*
 * A flag's value as DTrace reads it: none sets it; "" unsets it; yes/no,
 * enable(d)/disable(d), true/false, on/off, set/unset; any non-negative
 * integer sets it.  1 set, 0 unset, -1 not a value.
 */
static int flag_value(const char *value)
{
	static const char *const words[][2] = {
		{ "yes", "no" }, { "enable", "disable" }, { "enabled", "disabled" },
		{ "true", "false" }, { "on", "off" }, { "set", "unset" },
	};

	if (value == NULL)
		return 1;
	if (*value == '\0')
		return 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strcasecmp(value, words[i][0]) == 0)
			return 1;
		if (strcasecmp(value, words[i][1]) == 0)
			return 0;
	}
	char *end;
	errno = 0;
	long long x = strtoll(value, &end, 0);
	return *end != '\0' || errno != 0 || x < 0 ? -1 : 1;
}

/*
 * version=M.m[.u]: programs are compiled as D 2.0 (DTrace for Linux's);
 * an earlier version is accepted, a later one refused as DTrace refuses it.
 */
static int check_version(struct dtrace_hdl *dtp, const char *value)
{
	long part[3] = { 0, 0, 0 };
	const char *p = value;
	int n = 0;

	while (p != NULL && n < 3 && isdigit((unsigned char)*p)) {
		char *end;
		errno = 0;
		part[n++] = strtol(p, &end, 10);
		if (errno != 0 || part[n - 1] > 0xfff)
			break;
		p = *end == '.' && n < 3 ? end + 1 : end;
		if (*end != '.')
			break;
	}
	if (value == NULL || n < 2 || *p != '\0')
		return dt_set_error(dtp, -EINVAL, "Invalid version string");
	if (part[0] > 2 || (part[0] == 2 && (part[1] > 0 || part[2] > 0)))
		return dt_set_error(dtp, -ENOTSUP, "Requested version is not supported by compiler");
	return 0;
}

/* Add prefix + value to a list option (-D/-U/-I arguments, -L directories). */
static int append(struct dtrace_hdl *dtp, char ***v, int *n, const char *prefix, const char *value)
{
	char **nv = realloc(*v, sizeof(char *) * (size_t)(*n + 1));
	char *s = NULL;

	if (nv != NULL)
		*v = nv;
	if (nv == NULL || asprintf(&s, "%s%s", prefix, value) < 0)
		return dt_set_error(dtp, -ENOMEM, "out of memory");
	(*v)[(*n)++] = s;
	return 0;
}

int dt_option_set(struct dtrace_hdl *dtp, const char *name, const char *value)
{
	const struct optdef *d = find(name);
	struct dt_options *o = &dtp->opts;
	char *base = (char *)o;
	int64_t v;

	if (d == NULL)
		return dt_set_error(dtp, -ENOENT, "Invalid option name");
	switch (d->kind) {
	case OK_FLAG: {
		int on = flag_value(value);
		if (on < 0)
			return badval(dtp);
		*(bool *)(base + d->off) = on != 0;
		return 0;
	}
	case OK_SIZE:
		if (value == NULL || dt_parse_size(value, &v) < 0)
			return badval(dtp);
		if (d->off == O(strsize) && (v < 2 || v > 65536))
			return badval(dtp);
		*(int64_t *)(base + d->off) = v;
		if (d->off == O(strsize))
			dtp->types.t_string->size = (uint32_t)v;
		return 0;
	case OK_RATE:
		if (value == NULL || dt_parse_rate(value, &v) < 0)
			return badval(dtp);
		*(int64_t *)(base + d->off) = v;
		return 0;
	case OK_INT: {
		char *end;
		if (value == NULL)
			return badval(dtp);
		errno = 0;
		v = strtoll(value, &end, 0);
		if (*end != '\0' || errno != 0 || end == value)
			return badval(dtp);
		if (d->off == O(nspec) && v < 0)
			return badval(dtp);
		*(int64_t *)(base + d->off) = v;
		return 0;
	}
	case OK_STRING: {
		if (value == NULL)
			return badval(dtp);
		char **sp = (char **)(base + d->off);
		char *s = strdup(value);
		if (s == NULL)
			return dt_set_error(dtp, -ENOMEM, "out of memory");
		free(*sp);
		*sp = s;
		if (d->off == O(oformat) && strcmp(s, "json") != 0 && strcmp(s, "text") != 0)
			return badval(dtp);
		if (d->off == O(fbtmech) && strcmp(s, "auto") != 0 && strcmp(s, "fentry") != 0 &&
		    strcmp(s, "kprobe_multi") != 0 && strcmp(s, "kprobe") != 0)
			return badval(dtp);
		return 0;
	}
	case OK_BUFPOLICY:
		if (value == NULL)
			return badval(dtp);
		if (strcmp(value, "switch") == 0)
			o->bufpolicy = DT_BUFPOLICY_SWITCH;
		else if (strcmp(value, "fill") == 0)
			o->bufpolicy = DT_BUFPOLICY_FILL;
		else if (strcmp(value, "ring") == 0)
			o->bufpolicy = DT_BUFPOLICY_RING;
		else
			return badval(dtp);
		return 0;
	case OK_LIBDIR:
		if (value == NULL)
			return badval(dtp);
		return append(dtp, &o->libdirs, &o->nlibdirs, "", value);
	case OK_CPPARG:
		if (value == NULL)
			return badval(dtp);
		return append(dtp, &o->cppargs, &o->ncppargs, d->cppflag, value);
	case OK_IGNORED:
		return 0;
	case OK_VERSION:
		return check_version(dtp, value);
	}
	return badval(dtp);
}

int dt_option_get(struct dtrace_hdl *dtp, const char *name, int64_t *valp)
{
	const struct optdef *d = find(name);
	const char *base = (const char *)&dtp->opts;

	if (d == NULL)
		return dt_set_error(dtp, -ENOENT, "Invalid option name");
	switch (d->kind) {
	case OK_FLAG:
		*valp = *(const bool *)(base + d->off);
		return 0;
	case OK_SIZE:
	case OK_RATE:
	case OK_INT:
	case OK_BUFPOLICY:
		*valp = *(const int64_t *)(base + d->off);
		return 0;
	default:
		return dt_set_error(dtp, -EINVAL, "option %s has no integer value", name);
	}
}
