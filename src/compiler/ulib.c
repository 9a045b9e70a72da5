/*
 * D libraries from the -L directories (libdir option): every *.d file in
 * them is compiled into the handle before the first program, so that its
 * inlines, translators, types and declarations are the program's.  A
 * library names what it needs with #pragma D depends_on: a library
 * (compiled first; a cycle or a missing one is an error), a kernel module
 * or a provider (when absent, the library and every library depending on
 * it are left out, as DTrace leaves out libraries for absent subsystems).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/util.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/parser.h"
#include "compiler/pcb.h"
#include "compiler/sema.h"
#include "compiler/ulib.h"

enum { UL_NEW, UL_VISITING, UL_DONE };

struct ulib {
	char *path;
	const char *name;	/* its file name in path, as depends_on names it */
	char *text;
	DT_VEC(char *) deps;	/* libraries it depends on */
	bool absent;		/* needs a module or provider that is not there */
	int mark;
};

struct ulibs {
	DT_VEC(struct ulib) libs;
	DT_VEC(struct ulib *) order;
};

static bool module_present(const char *name)
{
	char path[300];
	struct stat st;

	if (strcmp(name, "vmlinux") == 0 || strcmp(name, "kernel") == 0 ||
	    strcmp(name, "unix") == 0 || strcmp(name, "genunix") == 0)
		return true;
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (stat(path, &st) == 0)
		return true;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
	return stat(path, &st) == 0;
}

/* Read the library's "#pragma D depends_on <class> <name>" lines. */
static int scan_depends(struct dt_compiler *cc, struct ulib *l)
{
	for (const char *p = l->text; p != NULL && *p != '\0';) {
		const char *eol = strchr(p, '\n');
		size_t len = eol != NULL ? (size_t)(eol - p) : strlen(p);
		char line[512], cls[64], name[256];
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		p = eol != NULL ? eol + 1 : NULL;
		const char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '#')
			continue;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		if (sscanf(s, "pragma D depends_on %63s %255s", cls, name) != 2)
			continue;
		if (strcmp(cls, "library") == 0) {
			char *dep = strdup(name);
			if (dep == NULL || dt_vec_push(&l->deps, dep) < 0) {
				free(dep);
				return dt_set_error(cc->core, -ENOMEM, "out of memory");
			}
		} else if (strcmp(cls, "module") == 0) {
			l->absent |= !module_present(name);
		} else if (strcmp(cls, "provider") == 0) {
			l->absent |= dt_provider_lookup(cc->reg, name) == NULL;
		}
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ulib *)a)->name, ((const struct ulib *)b)->name);
}

/* Every *.d file of every -L directory, in name order within each directory. */
static int read_dirs(struct dt_compiler *cc, struct ulibs *ls)
{
	for (int d = 0; d < cc->core->opts.nlibdirs; d++) {
		const char *dir = cc->core->opts.libdirs[d];
		DIR *dp = opendir(dir);
		/* As in DTrace, a directory that is not there holds no libraries. */
		if (dp == NULL)
			continue;
		size_t first = ls->libs.n;
		struct dirent *de;
		while ((de = readdir(dp)) != NULL) {
			size_t n = strlen(de->d_name);
			if (n < 3 || strcmp(de->d_name + n - 2, ".d") != 0)
				continue;
			struct ulib l = { 0 };
			if (asprintf(&l.path, "%s/%s", dir, de->d_name) < 0)
				l.path = NULL;
			if (l.path == NULL || dt_vec_push(&ls->libs, l) < 0) {
				free(l.path);
				closedir(dp);
				return dt_set_error(cc->core, -ENOMEM, "out of memory");
			}
			ls->libs.v[ls->libs.n - 1].name = strrchr(l.path, '/') + 1;
		}
		closedir(dp);
		qsort(ls->libs.v + first, ls->libs.n - first, sizeof(*ls->libs.v), by_name);
	}
	for (size_t i = 0; i < ls->libs.n; i++) {
		struct ulib *l = &ls->libs.v[i];
		if ((l->text = dt_read_file(l->path, NULL)) == NULL)
			return dt_set_error(cc->core, -errno, "cannot read library %s: %s", l->path,
					    strerror(errno));
		int rc = scan_depends(cc, l);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static struct ulib *find(struct ulibs *ls, const char *name)
{
	for (size_t i = 0; i < ls->libs.n; i++)
		if (strcmp(ls->libs.v[i].name, name) == 0)
			return &ls->libs.v[i];
	return NULL;
}

/* Depth-first: a library after those it depends on; absence spreads to dependents. */
static int visit(struct dt_compiler *cc, struct ulibs *ls, struct ulib *l)
{
	if (l->mark == UL_DONE)
		return 0;
	if (l->mark == UL_VISITING)
		return dt_set_error(cc->core, -EINVAL, "circular library dependency: %s depends on itself "
				    "through #pragma D depends_on library", l->name);
	l->mark = UL_VISITING;
	for (size_t i = 0; i < l->deps.n; i++) {
		struct ulib *d = find(ls, l->deps.v[i]);
		if (d == NULL)
			return dt_set_error(cc->core, -EINVAL, "library %s depends on library %s, which no "
					    "library directory holds", l->path, l->deps.v[i]);
		int rc = visit(cc, ls, d);
		if (rc < 0)
			return rc;
		l->absent |= d->absent;
	}
	l->mark = UL_DONE;
	if (dt_vec_push(&ls->order, l) < 0)
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	return 0;
}

/* Parse and check one library; its errors name it. */
static int compile_one(struct dt_compiler *cc, struct ulib *l)
{
	struct dt_pcb pcb;

	dt_dprintf(cc->core, "loading library %s\n", l->path);
	memset(&pcb, 0, sizeof(pcb));
	pcb.cc = cc;
	pcb.arena = &cc->core->arena;
	pcb.filename = l->path;
	pcb.filetag = l->path;
	pcb.show_lines = true;
	pcb.is_library = true;
	dt_nest_init(&pcb);
	pcb.src = dt_arena_strdup(&cc->core->arena, l->text);
	if (pcb.src == NULL)
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	pcb.srclen = strlen(pcb.src);
	if (setjmp(pcb.jb) != 0)
		return -EINVAL;
	/*
	 * A library's clauses are parsed, never enabled: DTrace compiles them
	 * as programs it then drops, which finds the calls of functions that
	 * do not exist (dt_sema_program's check); checking them fully would
	 * declare their aggregations and variables in the handle.
	 */
	dt_parse_program(&pcb);
	dt_sema_program(&pcb);
	return 0;
}

static void free_libs(struct ulibs *ls)
{
	for (size_t i = 0; i < ls->libs.n; i++) {
		struct ulib *l = &ls->libs.v[i];
		free(l->path);
		free(l->text);
		for (size_t j = 0; j < l->deps.n; j++)
			free(l->deps.v[j]);
		dt_vec_free(&l->deps);
	}
	dt_vec_free(&ls->libs);
	dt_vec_free(&ls->order);
}

int dt_ulib_load(struct dt_compiler *cc)
{
	struct ulibs ls = { 0 };
	int rc;

	/* -x nolibs: no D libraries at all. */
	if (cc->core->opts.nolibs)
		return 0;
	if (cc->ulib_state != 0 || cc->core->opts.nlibdirs == 0)
		return cc->ulib_state < 0 ? cc->ulib_state : 0;
	rc = read_dirs(cc, &ls);
	for (size_t i = 0; rc == 0 && i < ls.libs.n; i++)
		rc = visit(cc, &ls, &ls.libs.v[i]);
	/* A library's identifiers belong to no program (pragma.c's scope rule). */
	uint32_t program = cc->program;
	cc->program = 0;
	for (size_t i = 0; rc == 0 && i < ls.order.n; i++)
		if (!ls.order.v[i]->absent)
			rc = compile_one(cc, ls.order.v[i]);
	cc->program = program;
	free_libs(&ls);
	cc->ulib_state = rc < 0 ? rc : 1;
	return rc;
}
