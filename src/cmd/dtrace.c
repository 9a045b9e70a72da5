/*
 * dtrace(8): the command line.  Parses options, compiles the scripts and
 * probe descriptions, lists probes or enables them, runs the consume loop
 * and exits as DTrace does (0 success, 1 failure, 2 usage).  Everything
 * goes through the public API in dtrace.h.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dtrace.h"

#define E_SUCCESS 0
#define E_ERROR 1
#define E_USAGE 2

enum cmd_kind { CMD_SCRIPT, CMD_PSPEC };

struct cmd {
	enum cmd_kind kind;
	enum dtrace_pspec pspec;
	const char *arg;
	dtrace_prog_t *prog;
};

/* A -c command, split into words. */
struct command {
	char **argv;
	int argc;
};

struct options {
	struct cmd *cmds;
	int ncmds;
	bool list, compile_only, verbose, version, disasm, quiet_flag, zdefs, cpp;
	bool header, link;		/* -h, -G */
	const char *ofile;
	struct command *commands;	/* -c, in order: the first is $target */
	int ncommands;
	pid_t *pids;
	int npids;
	int macro_argc;
	char **macro_argv;
};

/* Set from signal handlers; the only state outside main's locals. */
static volatile sig_atomic_t g_intr;
static dtrace_hdl_t *g_sig_dtp;

static void on_signal(int sig)
{
	(void)sig;
	g_intr++;
	if (g_sig_dtp != NULL)
		dtrace_wake(g_sig_dtp);
}

/* -x core: end with a core dump (DTrace's debugging aid), whatever the limit. */
static _Noreturn void dump_core(void)
{
	static const char msg[] = "libdtrace DEBUG: [ forcing coredump ]\n";
	struct rlimit lim = { RLIM_INFINITY, RLIM_INFINITY };

	fflush(NULL);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	signal(SIGABRT, SIG_DFL);
	setrlimit(RLIMIT_CORE, &lim);
	abort();
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: dtrace [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
		"\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
		"\t[-x opt[=val]] [-X a|c|s|t]\n\n"
		"\t[-P provider [[ predicate ] action ]]\n"
		"\t[-m [ provider: ] module [[ predicate ] action ]]\n"
		"\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
		"\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
		"\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n"
		"\tpredicate -> '/' D-expression '/'\n"
		"\t   action -> '{' D-statements '}'\n\n"
		"\t-32 generate 32-bit D programs and ELF files\n"
		"\t-64 generate 64-bit D programs and ELF files\n\n"
		"\t-a  claim anonymous tracing state\n"
		"\t-A  generate driver.conf(4) directives for anonymous tracing\n"
		"\t-b  set trace buffer size\n"
		"\t-c  run specified command and exit upon its completion\n"
		"\t-C  run cpp(1) preprocessor on script files\n"
		"\t-D  define symbol when invoking preprocessor\n"
		"\t-e  exit after compiling request but prior to enabling probes\n"
		"\t-f  enable or list probes matching the specified function name\n"
		"\t-F  coalesce trace output by function\n"
		"\t-G  generate an ELF file containing embedded dtrace program\n"
		"\t-h  generate a header file with definitions for static probes\n"
		"\t-H  print included files when invoking preprocessor\n"
		"\t-i  enable or list probes matching the specified probe id\n"
		"\t-I  add include directory to preprocessor search path\n"
		"\t-l  list probes matching specified criteria\n"
		"\t-L  add library directory to library search path\n"
		"\t-m  enable or list probes matching the specified module name\n"
		"\t-n  enable or list probes matching the specified probe name\n"
		"\t-o  set output file\n"
		"\t-p  grab specified process-ID and cache its symbol tables\n"
		"\t-P  enable or list probes matching the specified provider name\n"
		"\t-q  set quiet mode (only output explicitly traced data)\n"
		"\t-s  enable or list probes according to the specified D script\n"
		"\t-S  print D compiler intermediate code\n"
		"\t-U  undefine symbol when invoking preprocessor\n"
		"\t-v  set verbose mode (report stability attributes, arguments)\n"
		"\t-V  report DTrace API version\n"
		"\t-w  permit destructive actions\n"
		"\t-x  enable or modify compiler and tracing options\n"
		"\t-X  specify ISO C conformance settings for preprocessor\n"
		"\t-Z  permit probe descriptions that match zero probes\n");
}

static void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void errmsg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "dtrace: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int add_cmd(struct options *o, enum cmd_kind kind, enum dtrace_pspec ps, const char *arg)
{
	struct cmd *c = realloc(o->cmds, sizeof(*c) * (size_t)(o->ncmds + 1));

	if (c == NULL)
		return -1;
	o->cmds = c;
	c[o->ncmds].kind = kind;
	c[o->ncmds].pspec = ps;
	c[o->ncmds].arg = arg;
	c[o->ncmds].prog = NULL;
	o->ncmds++;
	return 0;
}

/*
 * Split "-c" command text into words (no shell, no quoting), at any of
 * the white space characters DTrace's make_argv() splits at: a command
 * built from a list with newlines in it gets one word per line.
 */
static char **split_words(const char *s, int *np)
{
	static const char ws[] = " \f\n\r\t\v";
	char **v = NULL;
	int n = 0;
	char *copy = strdup(s), *save = NULL;

	if (copy == NULL)
		return NULL;
	for (char *w = strtok_r(copy, ws, &save); w != NULL; w = strtok_r(NULL, ws, &save)) {
		char **nv = realloc(v, sizeof(*v) * (size_t)(n + 2));
		if (nv == NULL)
			break;
		v = nv;
		v[n++] = strdup(w);
		v[n] = NULL;
	}
	free(copy);
	*np = n;
	return v;
}

static int set_opt(dtrace_hdl_t *dtp, const char *flag, const char *name, const char *val)
{
	if (dtrace_setopt(dtp, name, val) == 0)
		return 0;
	if (flag[1] == 'x')
		errmsg("failed to set -x %s: %s", name, dtrace_errmsg(dtp));
	else if (val != NULL)
		errmsg("failed to set %s %s: %s", flag, val, dtrace_errmsg(dtp));
	else
		errmsg("failed to set %s: %s", flag, dtrace_errmsg(dtp));
	return -1;
}

struct listing {
	FILE *fp;
	bool verbose;		/* -v: stability and argument types too */
};

static void list_attrs(FILE *fp, const char *what, const char *const *a)
{
	fprintf(fp, "\n\t%s Attributes\n", what);
	fprintf(fp, "\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n",
		a[0], a[1], a[2]);
}

static void list_detail(FILE *fp, const dtrace_probedetail_t *pd)
{
	list_attrs(fp, "Probe Description", pd->attr);
	list_attrs(fp, "Argument", pd->attr + 3);
	fprintf(fp, "\n\tArgument Types\n");
	for (int i = 0; i < pd->nargs; i++)
		fprintf(fp, "\t\targs[%d]: %s\n", i, pd->argtype[i]);
	if (pd->nargs == 0)
		fprintf(fp, "\t\tNone\n");
	fprintf(fp, "\n");
}

static int list_probe(dtrace_hdl_t *dtp, const dtrace_probeinfo_t *pi, void *arg)
{
	struct listing *l = arg;
	dtrace_probedetail_t pd;

	fprintf(l->fp, "%5u %10s %17s %33s %s\n", pi->id, pi->provider, pi->module, pi->function,
		pi->name);
	if (!l->verbose || dtrace_probe_detail(dtp, pi->id, &pd) < 0)
		return 0;
	list_detail(l->fp, &pd);
	return 0;
}

/* dtrace -ev: each description, and what DTrace's probe info says of it. */
static int report_pdesc(dtrace_hdl_t *dtp, const char *desc, const dtrace_probedetail_t *pd,
			void *arg)
{
	FILE *fp = arg;

	(void)dtp;
	fprintf(fp, "\n%s\n", desc);
	if (pd != NULL)
		list_detail(fp, pd);
	return 0;
}

/* DTrace's exec_prog() -v report: the program's least attributes. */
static void stability_report(dtrace_hdl_t *dtp, FILE *fp, dtrace_prog_t *prog, const char *what,
			     const char *name, bool compile_only)
{
	const char *desc[3], *stmt[3];

	dtrace_prog_stability(dtp, prog, desc, stmt);
	fprintf(fp, "\nStability attributes for %s %s:\n", what, name);
	list_attrs(fp, "Minimum Probe Description", desc);
	list_attrs(fp, "Minimum Statement", stmt);
	if (compile_only)
		dtrace_prog_pdesc_iter(dtp, prog, report_pdesc, fp);
	else
		fprintf(fp, "\n");
	fflush(fp);
}

static void close_out(FILE *out)
{
	if (out != stdout)
		fclose(out);
}

static void no_match(dtrace_hdl_t *dtp, const char *desc, void *arg)
{
	(void)dtp;
	(void)arg;
	errmsg("failed to match %s: No probe matches description", desc);
}

/*
 * A file named on the command line, for writing: appended to (-o, as
 * DTrace) or truncated (-h); never through a symbolic link others could
 * have planted (dtrace_open_output).  NULL, and why in *why.
 */
static FILE *open_ofile(dtrace_hdl_t *dtp, const char *path, bool append, const char **why)
{
	int fd = dtrace_open_output(dtp, path, append);
	FILE *fp = NULL;

	if (fd < 0) {
		*why = dtrace_errmsg(dtp);
	} else if ((fp = fdopen(fd, append ? "a" : "w")) == NULL) {
		*why = strerror(errno);
		close(fd);
	}
	return fp;
}

/* The description as reported: cut before any predicate or action. */
static char *crop_desc(const char *s)
{
	size_t n = strcspn(s, "{/;");
	char *c = strndup(s, n);

	return c;
}

#define OPTSTR "+3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z"

/* Apply one option; returns -1 to go on or the exit status to stop with. */
static int parse_opt(int c, char **argv, dtrace_hdl_t *dtp, struct options *o)
{
	static const char optstr[] = OPTSTR;

	switch (c) {
	case '3':
	case '6':
		if (strcmp(optarg, c == '3' ? "2" : "4") != 0) {
			fprintf(stderr, "%s: illegal option -- %c%s\n", argv[0], c, optarg);
			usage(stderr);
			return E_USAGE;
		}
		break;
	case 'a': case 'A': case 'B':
		errmsg("-%c is not supported by this DTrace", c);
		return E_ERROR;
	case 'H':
		if (set_opt(dtp, "-H", "cpphdrs", NULL) < 0)
			return E_ERROR;
		break;
	case 'h':
		o->header = true;
		break;
	case 'G':
		o->link = true;
		break;
	case 'b':
		if (set_opt(dtp, "-b", "bufsize", optarg) < 0)
			return E_ERROR;
		break;
	case 'c': {
		struct command *nc = realloc(o->commands, sizeof(*nc) * (size_t)(o->ncommands + 1));
		if (nc == NULL)
			return E_ERROR;
		o->commands = nc;
		struct command *cmd = &nc[o->ncommands];
		cmd->argv = split_words(optarg, &cmd->argc);
		if (cmd->argv == NULL || cmd->argc == 0) {
			free(cmd->argv);
			errmsg("invalid command for -c: %s", optarg);
			return E_USAGE;
		}
		o->ncommands++;
		break;
	}
	case 'C':
		o->cpp = true;
		break;
	case 'D':
		if (set_opt(dtp, "-D", "define", optarg) < 0)
			return E_ERROR;
		break;
	case 'U':
		if (set_opt(dtp, "-U", "undef", optarg) < 0)
			return E_ERROR;
		break;
	case 'I':
		if (set_opt(dtp, "-I", "incdir", optarg) < 0)
			return E_ERROR;
		break;
	case 'L':
		if (set_opt(dtp, "-L", "libdir", optarg) < 0)
			return E_ERROR;
		break;
	case 'e':
		o->compile_only = true;
		break;
	case 'f':
		add_cmd(o, CMD_PSPEC, DTRACE_PSPEC_FUNC, optarg);
		break;
	case 'm':
		add_cmd(o, CMD_PSPEC, DTRACE_PSPEC_MODULE, optarg);
		break;
	case 'n':
		add_cmd(o, CMD_PSPEC, DTRACE_PSPEC_NAME, optarg);
		break;
	case 'P':
		add_cmd(o, CMD_PSPEC, DTRACE_PSPEC_PROVIDER, optarg);
		break;
	case 'i':
		add_cmd(o, CMD_PSPEC, DTRACE_PSPEC_ID, optarg);
		break;
	case 's':
		add_cmd(o, CMD_SCRIPT, DTRACE_PSPEC_NAME, optarg);
		break;
	case 'F':
		if (set_opt(dtp, "-F", "flowindent", NULL) < 0)
			return E_ERROR;
		break;
	case 'l':
		o->list = true;
		break;
	case 'o':
		o->ofile = optarg;
		break;
	case 'p': {
		char *end;
		long pid = strtol(optarg, &end, 10);
		if (*end != '\0' || pid <= 0) {
			errmsg("invalid pid: %s", optarg);
			return E_ERROR;
		}
		pid_t *np = realloc(o->pids, sizeof(*np) * (size_t)(o->npids + 1));
		if (np == NULL)
			return E_ERROR;
		o->pids = np;
		o->pids[o->npids++] = (pid_t)pid;
		break;
	}
	case 'q':
		o->quiet_flag = true;
		if (set_opt(dtp, "-q", "quiet", NULL) < 0)
			return E_ERROR;
		break;
	case 'S':
		o->disasm = true;
		break;
	case 'v':
		o->verbose = true;
		break;
	case 'V':
		o->version = true;
		break;
	case 'w':
		if (set_opt(dtp, "-w", "destructive", NULL) < 0)
			return E_ERROR;
		break;
	case 'x': {
		char *name = strdup(optarg), *eq = strchr(name, '=');
		if (eq)
			*eq++ = '\0';
		int rc = set_opt(dtp, "-x", name, eq);
		free(name);
		if (rc < 0)
			return E_ERROR;
		break;
	}
	case 'X':
		if (set_opt(dtp, "-X", "stdc", optarg) < 0)
			return E_ERROR;
		break;
	case 'Z':
		o->zdefs = true;
		if (set_opt(dtp, "-Z", "zdefs", NULL) < 0)
			return E_ERROR;
		break;
	default:
		if (optopt != 0 && strchr(optstr, optopt) != NULL)
			fprintf(stderr, "%s: option requires an argument -- %c\n", argv[0], optopt);
		else
			fprintf(stderr, "%s: illegal option -- %c\n", argv[0], optopt);
		usage(stderr);
		return E_USAGE;
	}
	return -1;
}

/*
 * DTrace's first pass over the arguments, before anything is set: options
 * it does not know and missing arguments are usage errors, and only one
 * of -G, -h, -l and -V may be given.  -1 to go on, else the exit status.
 */
static int prepass(int argc, char **argv)
{
	static const char optstr[] = OPTSTR;
	int modes = 0;

	opterr = 0;
	optind = 1;
	while (optind < argc) {
		int c = getopt(argc, argv, OPTSTR);
		if (c == -1) {
			optind++;
			continue;
		}
		if (c == '?' || c == ':') {
			if (optopt != 0 && strchr(optstr, optopt) != NULL)
				fprintf(stderr, "%s: option requires an argument -- %c\n", argv[0],
					optopt);
			else
				fprintf(stderr, "%s: illegal option -- %c\n", argv[0], optopt);
			usage(stderr);
			return E_USAGE;
		}
		if ((c == '3' || c == '6') && strcmp(optarg, c == '3' ? "2" : "4") != 0) {
			fprintf(stderr, "%s: illegal option -- %c%s\n", argv[0], c, optarg);
			usage(stderr);
			return E_USAGE;
		}
		modes += c == 'G' || c == 'h' || c == 'l' || c == 'V';
	}
	optind = 1;
	if (modes > 1) {
		errmsg("only one of the [-GhlV] options can be specified at a time");
		return E_USAGE;
	}
	return -1;
}

static int parse_args(int argc, char **argv, dtrace_hdl_t *dtp, struct options *o)
{
	/* Operands ($1 .. $n) may come between options, as in DTrace. */
	o->macro_argv = calloc((size_t)argc + 1, sizeof(char *));
	if (o->macro_argv == NULL)
		return E_ERROR;
	o->macro_argv[0] = argv[0];
	o->macro_argc = 1;
	opterr = 0;
	while (optind < argc) {
		int c = getopt(argc, argv, OPTSTR);
		if (c == -1) {
			if (optind < argc)
				o->macro_argv[o->macro_argc++] = argv[optind++];
			continue;
		}
		int rc = parse_opt(c, argv, dtp, o);
		if (rc != -1)
			return rc;
	}
	return -1;
}

/* -l: say which providers this system cannot list, and why. */
static int unavailable_provider(dtrace_hdl_t *dtp, const char *name, const char *why, void *arg)
{
	(void)dtp;
	(void)arg;
	if (why != NULL)
		errmsg("warning: %s probes are not listed: %s", name, why);
	return 0;
}

/* What DTrace calls a command in messages: "script x.d", "description BEGIN". */
static const char *cmd_desc(const struct cmd *c)
{
	return c->kind == CMD_SCRIPT ? "script" : "description";
}

/* Strip a trailing ".d" and any directory: DTrace's name for derived files. */
static char *derived_name(const char *arg, const char *ext)
{
	const char *b = strrchr(arg, '/');
	size_t n;

	b = b ? b + 1 : arg;
	n = strlen(b) - 2;
	char *name = malloc(n + strlen(ext) + 1);
	if (name != NULL) {
		memcpy(name, b, n);
		strcpy(name + n, ext);
	}
	return name;
}

static bool ends_in_d(const char *s)
{
	size_t n = strlen(s);

	return n >= 2 && strcmp(s + n - 2, ".d") == 0;
}

/* -h: the header for the providers the programs define. */
static int gen_header(dtrace_hdl_t *dtp, struct options *o)
{
	char *file;

	if (o->ofile != NULL) {
		file = strdup(o->ofile);
	} else if (o->ncmds > 1) {
		errmsg("-h requires an output file if multiple scripts are specified");
		return E_USAGE;
	} else if (!ends_in_d(o->cmds[0].arg)) {
		errmsg("-h requires an output file if no scripts are specified");
		return E_USAGE;
	} else {
		file = derived_name(o->cmds[0].arg, ".h");
	}
	if (file == NULL)
		return E_ERROR;
	const char *why = NULL;
	int rc = E_SUCCESS;
	FILE *fp = open_ofile(dtp, file, false, &why);
	if (fp == NULL) {
		errmsg("failed to open header file '%s': %s", file, why);
		rc = E_ERROR;
	} else {
		int r = dtrace_program_header(dtp, fp, file);
		if (fclose(fp) != 0 || r < 0) {
			errmsg("failed to create header file %s: %s", file, dtrace_errmsg(dtp));
			rc = E_ERROR;
		}
	}
	free(file);
	return rc;
}

/*
 * -G: an object per program, named by -o (one program), after a script
 * x.d (x.o), or d.out (d.out.N for the Nth of several programs).
 */
static int gen_objects(dtrace_hdl_t *dtp, struct options *o)
{
	for (int i = 0; i < o->ncmds; i++) {
		struct cmd *c = &o->cmds[i];
		char *file = NULL, *name = strdup(c->arg);
		if (name == NULL)
			return E_ERROR;
		if (o->ncmds == 1 && o->ofile != NULL) {
			file = strdup(o->ofile);
		} else if (ends_in_d(c->arg)) {
			file = derived_name(c->arg, ".o");
			/* DTrace names the program without its ".d" from here on. */
			name[strlen(name) - 2] = '\0';
		} else if (o->ncmds > 1) {
			if (asprintf(&file, "d.out.%d", i) < 0)
				file = NULL;
		} else {
			file = strdup("d.out");
		}
		if (c->kind == CMD_PSPEC) {
			char *cropped = crop_desc(name);
			free(name);
			name = cropped;
		}
		/* The operands are the objects to process, once. */
		int rc = file == NULL || name == NULL ? -1 :
			 dtrace_program_link(dtp, c->prog, 0, file, i == 0 ? o->macro_argc - 1 : 0,
					     o->macro_argv + 1);
		if (rc < 0 && file != NULL && name != NULL)
			errmsg("failed to link %s %s: %s", cmd_desc(c), name, dtrace_errmsg(dtp));
		free(file);
		free(name);
		if (rc < 0)
			return E_ERROR;
	}
	return E_SUCCESS;
}

/* -h (header for the providers the programs define) and -G (their objects). */
static int generate(dtrace_hdl_t *dtp, struct options *o)
{
	unsigned flags = (o->cpp ? DTRACE_C_CPP : 0) | DTRACE_C_ZDEFS;
	/* With -G the operands are the objects, not macro arguments. */
	char *argv0[] = { o->macro_argv[0], NULL };
	int argc = o->link ? 1 : o->macro_argc;
	char **argv = o->link ? argv0 : o->macro_argv;

	if (o->ncmds == 0) {
		errmsg("-%c requires one or more scripts or enabling options", o->header ? 'h' : 'G');
		return E_USAGE;
	}
	for (int i = 0; i < o->ncmds; i++) {
		struct cmd *c = &o->cmds[i];
		if (c->kind == CMD_SCRIPT) {
			argv[0] = (char *)c->arg;
			c->prog = dtrace_compile(dtp, c->arg, c->arg, DTRACE_PSPEC_NAME,
						 flags | DTRACE_C_FILE, argc, argv);
		} else {
			c->prog = dtrace_compile(dtp, c->arg, NULL, c->pspec, flags | DTRACE_C_PSPEC,
						 argc, argv);
		}
		if (c->prog == NULL) {
			if (c->kind == CMD_SCRIPT)
				errmsg("failed to compile script %s: %s", c->arg, dtrace_errmsg(dtp));
			else
				errmsg("invalid probe specifier %s: %s", c->arg, dtrace_errmsg(dtp));
			return E_ERROR;
		}
	}
	return o->header ? gen_header(dtp, o) : gen_objects(dtp, o);
}

/*
 * Each -c/-p process that ended since the last call, once, in the order
 * they ended, as DTrace's prochandler() says it (the status is known for
 * -c only); nothing once exit() has ended tracing.
 */
static void report_ends(dtrace_hdl_t *dtp, bool quiet)
{
	pid_t pid;
	int k, ws, st;

	while ((k = dtrace_proc_ended(dtp, &pid, &ws)) != 0) {
		if (quiet || dtrace_exited(dtp, &st))
			continue;
		if (k == 1 && WIFSIGNALED(ws))
			errmsg("pid %d terminated by SIG%s", (int)pid, sigabbrev_np(WTERMSIG(ws)));
		else if (k == 1 && WIFEXITED(ws) && WEXITSTATUS(ws) != 0)
			errmsg("pid %d exited with status %d", (int)pid, WEXITSTATUS(ws));
		else
			errmsg("pid %d has exited", (int)pid);
	}
}

static int run(dtrace_hdl_t *dtp, struct options *o)
{
	FILE *out = stdout;

	/* Fail early, and say what to do, when tracing is not possible here. */
	if (!o->list && !o->compile_only && dtrace_preflight(dtp) < 0) {
		errmsg("failed to initialize dtrace: %s", dtrace_errmsg(dtp));
		return E_ERROR;
	}

	for (int i = 0; i < o->ncmds; i++) {
		if (o->cmds[i].kind == CMD_SCRIPT) {
			o->macro_argv[0] = (char *)o->cmds[i].arg;
			break;
		}
	}
	if (o->header || o->link)
		return generate(dtp, o);
	/* With -l too: pid$target and usdt probes are listed from the process. */
	for (int i = 0; i < o->ncommands; i++) {
		if (dtrace_proc_create(dtp, o->commands[i].argv, NULL) < 0) {
			errmsg("%s", dtrace_errmsg(dtp));
			return E_ERROR;
		}
	}
	for (int i = 0; i < o->npids; i++) {
		if (dtrace_proc_grab(dtp, o->pids[i]) < 0) {
			errmsg("%s", dtrace_errmsg(dtp));
			return E_ERROR;
		}
	}
	/* As DTrace's main: options without a program enable nothing. */
	if (o->ncmds == 0 && !o->list) {
		if (o->compile_only)
			return E_SUCCESS;
		if (!o->zdefs) {
			errmsg("no probes specified");
			return E_ERROR;
		}
	}

	/* Compile everything first. */
	unsigned base = (o->cpp ? DTRACE_C_CPP : 0) | (o->list ? DTRACE_C_ZDEFS : 0);
	for (int i = 0; i < o->ncmds; i++) {
		struct cmd *c = &o->cmds[i];
		if (c->kind == CMD_SCRIPT) {
			c->prog = dtrace_compile(dtp, c->arg, c->arg, DTRACE_PSPEC_NAME,
						 base | DTRACE_C_FILE, o->macro_argc, o->macro_argv);
			if (c->prog == NULL) {
				if (dtrace_errno(dtp) == -EINVAL || dtrace_errno(dtp) == 0)
					errmsg("failed to compile script %s: %s", c->arg, dtrace_errmsg(dtp));
				else
					errmsg("%s", dtrace_errmsg(dtp));
				return E_ERROR;
			}
		} else {
			c->prog = dtrace_compile(dtp, c->arg, NULL, c->pspec, base | DTRACE_C_PSPEC,
						 o->macro_argc, o->macro_argv);
			if (c->prog == NULL) {
				errmsg("invalid probe specifier %s: %s", c->arg, dtrace_errmsg(dtp));
				return E_ERROR;
			}
		}
	}

	if (o->list) {
		const char *why = NULL;
		if (o->ofile && (out = open_ofile(dtp, o->ofile, true, &why)) == NULL) {
			errmsg("failed to open output file '%s': %s", o->ofile, why);
			return E_ERROR;
		}
		dtrace_provider_iter(dtp, unavailable_provider, NULL);
		fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
		struct listing l = { out, o->verbose };
		if (o->ncmds == 0)
			dtrace_probe_iter(dtp, NULL, DTRACE_PSPEC_NAME, list_probe, &l);
		for (int i = 0; i < o->ncmds; i++)
			dtrace_prog_list(dtp, o->cmds[i].prog, list_probe, no_match, &l);
		if (out != stdout)
			fclose(out);
		return E_SUCCESS;
	}

	/*
	 * pprof and openmetrics write -o themselves, whole at each printa()
	 * and at exit; the rest of the output stays on stdout.
	 */
	int fmt = dtrace_oformat(dtp);
	if (fmt == DTRACE_OFORMAT_PPROF || fmt == DTRACE_OFORMAT_OPENMETRICS) {
		if (o->ofile == NULL && !o->compile_only) {
			errmsg("-x oformat=%s writes a file: name it with -o",
			       fmt == DTRACE_OFORMAT_PPROF ? "pprof" : "openmetrics");
			return E_ERROR;
		}
		if (o->ofile != NULL && dtrace_set_format_file(dtp, o->ofile) < 0) {
			errmsg("%s", dtrace_errmsg(dtp));
			return E_ERROR;
		}
	} else if (o->ofile != NULL) {
		/* As DTrace's main: the output file first, where -v reports go too. */
		const char *why = NULL;
		if ((out = open_ofile(dtp, o->ofile, true, &why)) == NULL) {
			errmsg("failed to open output file '%s': %s", o->ofile, why);
			return E_ERROR;
		}
		dtrace_set_output(dtp, out);
	}
	int64_t q = 0;
	bool quiet = o->quiet_flag || (dtrace_getopt(dtp, "quiet", &q) == 0 && q);
	int total = 0;
	for (int i = 0; i < o->ncmds; i++) {
		struct cmd *c = &o->cmds[i];
		if (!o->compile_only && dtrace_prog_exec(dtp, c->prog) < 0) {
			errmsg("failed to enable '%s': %s", c->arg, dtrace_errmsg(dtp));
			close_out(out);
			return E_ERROR;
		}
		int n = dtrace_prog_nprobes(c->prog);
		total += n;
		char *name = c->kind == CMD_SCRIPT ? strdup(c->arg) : crop_desc(c->arg);
		const char *what = c->kind == CMD_SCRIPT ? "script" : "description";
		/* As DTrace's exec_prog: -e compiles without enabling, and says nothing. */
		if (!quiet && !o->compile_only)
			errmsg("%s '%s' matched %d probe%s", what, name ? name : c->arg, n,
			       n == 1 ? "" : "s");
		if (o->verbose)
			stability_report(dtp, out, c->prog, what, name ? name : c->arg,
					 o->compile_only);
		free(name);
	}
	/* -S and -x verbose: the code compiled for each clause (DTrace's DIFV flag). */
	int64_t verbose = 0;
	if (o->disasm || (dtrace_getopt(dtp, "verbose", &verbose) == 0 && verbose))
		dtrace_disassemble(dtp, stderr);
	if (o->compile_only) {
		close_out(out);
		return E_SUCCESS;
	}

	if (total == 0 && !o->zdefs) {
		errmsg("no probes %s", o->ncmds ? "matched" : "specified");
		close_out(out);
		return E_ERROR;
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	g_sig_dtp = dtp;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);

	if (dtrace_go(dtp) < 0) {
		errmsg("could not enable tracing: %s", dtrace_errmsg(dtp));
		if (out != stdout)
			fclose(out);
		return E_ERROR;
	}
	int64_t w = 0;
	if (!quiet && dtrace_getopt(dtp, "destructive", &w) == 0 && w)
		errmsg("allowing destructive actions");
	if (o->ncommands > 0 && dtrace_proc_continue(dtp) < 0) {
		errmsg("%s", dtrace_errmsg(dtp));
		dtrace_stop(dtp);
		return E_ERROR;
	}

	int rc = E_SUCCESS;
	bool done = false, intr_seen = false;
	/* DTrace's testing mode: no newline at an interrupt (it lands anywhere). */
	bool testing = getenv("_DTRACE_TESTING") != NULL;
	while (!done) {
		if (!g_intr)
			dtrace_sleep(dtp);
		if (g_intr)
			done = true;
		/*
		 * As DTrace's main: a newline once interrupted (^C, SIGTERM),
		 * even with -q, before what is still to be printed.
		 */
		if (g_intr && !intr_seen) {
			intr_seen = true;
			if (!testing && !dtrace_oformat(dtp))
				fputc('\n', out);
		}
		switch (dtrace_work(dtp)) {
		case DTRACE_WORKSTATUS_DONE:
			done = true;
			break;
		case DTRACE_WORKSTATUS_ERROR:
			errmsg("processing aborted: %s", dtrace_errmsg(dtp));
			rc = E_ERROR;
			done = true;
			break;
		default:
			break;
		}
		/* As DTrace: with several -c/-p processes, on until all of them have ended. */
		if (o->ncommands > 0 || o->npids > 0) {
			if (!done && dtrace_proc_done(dtp))
				done = true;
			report_ends(dtp, quiet);
		}
	}
	if (dtrace_stop(dtp) < 0) {
		errmsg("couldn't stop tracing: %s", dtrace_errmsg(dtp));
		rc = E_ERROR;
	}
	FILE *fp = out;
	/* DTrace's blank line before the aggregations; none between JSON objects. */
	if (!dtrace_oformat(dtp))
		fputc('\n', fp);
	if (dtrace_aggregate_print(dtp, fp) < 0) {
		errmsg("failed to print aggregations: %s", dtrace_errmsg(dtp));
		rc = E_ERROR;
	}
	fflush(fp);
	int status;
	if (rc == E_SUCCESS && dtrace_exited(dtp, &status))
		rc = status;
	if (out != stdout)
		fclose(out);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	int err;

	memset(&o, 0, sizeof(o));
	if (argc == 1) {
		usage(stderr);
		return E_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return E_SUCCESS;
	}
	int rc = prepass(argc, argv);
	if (rc != -1)
		return rc;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	if (dtp == NULL) {
		errmsg("failed to initialize dtrace: %s", strerror(err));
		return E_ERROR;
	}
	rc = parse_args(argc, argv, dtp, &o);
	if (rc < 0) {
		if (o.version) {
			/* As DTrace: the D programming interface version. */
			printf("dtrace: Sun D %s\n", dtrace_d_version());
			rc = E_SUCCESS;
		} else {
			rc = dtrace_set_macro_args(dtp, o.macro_argc, o.macro_argv) < 0 ? E_ERROR
											 : run(dtp, &o);
		}
	}
	int64_t core = 0;
	dtrace_getopt(dtp, "core", &core);
	dtrace_close(dtp);
	for (int i = 0; i < o.ncommands; i++) {
		for (int j = 0; j < o.commands[i].argc; j++)
			free(o.commands[i].argv[j]);
		free(o.commands[i].argv);
	}
	free(o.commands);
	free(o.cmds);
	free(o.pids);
	free(o.macro_argv);
	if (core)
		dump_core();
	return rc;
}
