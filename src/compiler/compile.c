/*
 * dtrace_compile(): source text (or a file, or a probe specifier) through
 * the preprocessor, parser, semantic checks, probe matching and code
 * generation, into a program of clauses ready to enable.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/object.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "compiler/cpp.h"
#include "compiler/ctf_write.h"
#include "compiler/ident.h"
#include "compiler/macros.h"
#include "compiler/nest.h"
#include "compiler/parser.h"
#include "compiler/pragma.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/ulib.h"

/* The object every program's functions go into (created on first use). */
static struct bo_object *object(struct dt_pcb *pcb)
{
	struct dt_compiler *cc = pcb->cc;

	if (cc->obj == NULL) {
		cc->obj = dt_arena_zalloc(&cc->core->arena, sizeof(*cc->obj));
		if (cc->obj == NULL)
			dt_cnomem(pcb);
		cc->obj->license = "GPL";
		/* Record description 0 is the error record. */
		if (cc->descs->rdescs.n == 0) {
			struct dt_rdesc *rd = dt_arena_zalloc(&cc->core->arena, sizeof(*rd));
			if (rd == NULL || dt_vec_push(&cc->descs->rdescs, rd) < 0)
				dt_cnomem(pcb);
			rd->size = DT_REC_DATA_OFF + sizeof(struct dt_rec_error);
			rd->internal = true;
		}
	}
	return cc->obj;
}

struct match_ctx {
	struct dt_stmt *st;
	int pdesc;
	DT_VEC(uint64_t) seen;	/* bit per probe id this description matched already */
	const struct dt_probe *unavail;	/* the first it matched that cannot be enabled */
	const char *why;
};

static int add_probe(struct dt_registry *reg, struct dt_probe *prp, void *arg)
{
	struct match_ctx *mc = arg;
	struct dt_stmt *st = mc->st;
	size_t w = prp->id / 64;
	uint64_t bit = 1ULL << (prp->id % 64);

	/* A bitmap, not a scan: a glob such as fbt:::entry matches tens of thousands. */
	if (dt_vec_reserve(&mc->seen, w + 1) < 0)
		return -ENOMEM;
	while (mc->seen.n <= w)
		mc->seen.v[mc->seen.n++] = 0;
	if (mc->seen.v[w] & bit)
		return 0;
	mc->seen.v[w] |= bit;
	const char *why = prp->prov->probe_unavailable ? prp->prov->probe_unavailable(reg, prp)
						       : NULL;
	if (why != NULL) {
		if (mc->unavail == NULL) {
			mc->unavail = prp;
			mc->why = why;
		}
		return 0;
	}
	if (strcmp(prp->desc[0], "dtrace") == 0 && strcmp(prp->desc[3], "ERROR") == 0)
		st->enables_error = true;
	if (dt_vec_push(&st->probe_pdesc, mc->pdesc) < 0)
		return -ENOMEM;
	return dt_vec_push(&st->probes, prp);
}

static void pdesc_name(const struct dt_pdesc *pd, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s:%s:%s", pd->prov, pd->mod, pd->func, pd->name);
}

static void compile_clause(struct dt_pcb *pcb, struct dtrace_prog *pgp, struct dt_node *c)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_stmt *st = dt_palloc(pcb, sizeof(*st));

	memset(st, 0, sizeof(*st));
	st->clause = c;
	st->prog = pgp;
	/* DTrace numbers a clause per probe description it lists. */
	st->id = cc->nextstmt;
	st->npdescs = c->clause.npdescs;
	cc->nextstmt += (uint32_t)c->clause.npdescs;
	/* In the program first: a compile error frees what matching collected. */
	if (dt_vec_push(&pgp->stmts, st) < 0)
		dt_cnomem(pcb);
	struct match_ctx mc = { st, 0, { 0 }, NULL, NULL };
	for (int i = 0; i < c->clause.npdescs; i++) {
		struct dt_pdesc *pd = c->clause.pdescs[i];
		size_t before = st->probes.n;
		/*
		 * As DTrace, each description is a clause of its own: a probe two
		 * of them match runs the clause twice (pid's go:entry,_go:entry).
		 */
		mc.pdesc = i;
		mc.seen.n = 0;
		mc.unavail = NULL;
		cc->core->errtag[0] = '\0';
		dt_dprintf(cc->core, "set context to %s:%s:%s:%s\n", pd->prov, pd->mod, pd->func, pd->name);
		int n = dt_probe_match(cc->reg, pd, add_probe, &mc);
		if (n < 0 && cc->core->errtag[0] != '\0') {
			/* A provider's own error (pid, usdt): its tag and message. */
			char tag[sizeof(cc->core->errtag)], msg[sizeof(cc->core->errmsg)];
			memcpy(tag, cc->core->errtag, sizeof(tag));
			memcpy(msg, cc->core->errmsg, sizeof(msg));
			dt_vec_free(&mc.seen);
			dt_cerror(pcb, tag, pd->line, "%s", msg);
		}
		/* No tag, as DTrace reports its own failures (out of memory ...). */
		if (n < 0) {
			dt_vec_free(&mc.seen);
			dt_cerror(pcb, NULL, pd->line, "failed to match probes: %s", strerror(-n));
		}
		/* Only probes that cannot be enabled here: as no match, with the reason. */
		if (n > 0 && st->probes.n == before && mc.unavail != NULL && !cc->core->opts.zdefs &&
		    !(pcb->cflags & DTRACE_C_ZDEFS)) {
			char name[512];
			dt_probe_fullname(mc.unavail, name, sizeof(name));
			dt_vec_free(&mc.seen);
			dt_cerror(pcb, NULL, pd->line, "probe %s cannot be enabled: %s", name, mc.why);
		}
		if (n == 0 && !cc->core->opts.zdefs && !(pcb->cflags & DTRACE_C_ZDEFS)) {
			char name[512];
			pdesc_name(pd, name, sizeof(name));
			dt_vec_free(&mc.seen);
			dt_cerror(pcb, "D_PDESC_ZERO", pd->line,
				  "probe description %s does not match any probes", name);
		}
	}
	dt_vec_free(&mc.seen);
	dt_attr_clause(pcb, st);
}

/* String keys of a new aggregation take the longest string any use can give. */
struct agg_sizes {
	struct dt_aggdesc *ad;
	struct dt_node *first;
	uint32_t *sizes;	/* [ad->nkeys], in the arena */
};

struct agg_scan {
	struct agg_sizes *v;	/* in the arena, grown by doubling */
	int n, cap;
};

static void scan_aggs(struct dt_pcb *pcb, struct dt_node *list, struct agg_scan *sc)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_IF || s->kind == N_BLOCK) {
			scan_aggs(pcb, s->body, sc);
			scan_aggs(pcb, s->elsebody, sc);
			continue;
		}
		if (s->kind != N_EXPRSTMT || s->l->kind != N_OP2 || s->l->l->kind != N_AGG)
			continue;
		struct dt_node *agg = s->l->l;
		struct dt_aggdesc *ad = agg->id ? agg->id->agg : NULL;
		if (ad == NULL || ad->key_size != 0)
			continue;
		int i;
		for (i = 0; i < sc->n && sc->v[i].ad != ad; i++)
			;
		if (i == sc->n) {
			/* Any number of aggregations: a program may have thousands. */
			if (sc->n == sc->cap) {
				int cap = sc->cap ? 2 * sc->cap : 64;
				struct agg_sizes *nv = dt_palloc(pcb, sizeof(*nv) * (size_t)cap);
				if (sc->n > 0)
					memcpy(nv, sc->v, sizeof(*nv) * (size_t)sc->n);
				sc->v = nv;
				sc->cap = cap;
			}
			memset(&sc->v[i], 0, sizeof(sc->v[i]));
			sc->v[i].ad = ad;
			sc->v[i].first = agg;
			sc->v[i].sizes = dt_palloc(pcb, sizeof(uint32_t) * (size_t)(ad->nkeys + 1));
			sc->n++;
		}
		struct agg_sizes *v = sc->v;
		int k = 0;
		for (struct dt_node *key = agg->agg.keys; key && k < ad->nkeys; key = key->next, k++) {
			uint32_t sz = dt_expr_strsize(pcb->cc, key);
			if (sz > v[i].sizes[k])
				v[i].sizes[k] = sz;
		}
	}
}

static void layout_aggs(struct dt_pcb *pcb, struct dtrace_prog *pgp)
{
	struct agg_scan sc = { NULL, 0, 0 };

	for (size_t i = 0; i < pgp->stmts.n; i++)
		scan_aggs(pcb, pgp->stmts.v[i]->clause->clause.body, &sc);
	for (int i = 0; i < sc.n; i++)
		dt_agg_layout(pcb, sc.v[i].first, sc.v[i].sizes);
}

static char *read_source(struct dt_compiler *cc, const char *text, unsigned flags, size_t *lenp)
{
	if (!(flags & DTRACE_C_FILE)) {
		*lenp = strlen(text);
		return strdup(text);
	}
	size_t len;
	char *s = dt_read_file(text, &len);
	if (s == NULL)
		dt_set_error(cc->core, -errno, "failed to open %s: %s", text, strerror(errno));
	*lenp = len;
	return s;
}

/* DTrace's "matched N probes" counts each clause's probes. */
static int count_probes(const struct dtrace_prog *pgp)
{
	int n = 0;

	for (size_t i = 0; i < pgp->stmts.n; i++)
		n += (int)pgp->stmts.v[i]->probes.n;
	return n;
}

/*
 * -x ctfpath names the kernel's CTF archive.  Kernel types come from BTF
 * here; the archive is looked at once, so that -x debug says what DTrace
 * says of one it cannot open.
 */
static void check_ctfpath(struct dt_compiler *cc)
{
	const char *path = cc->core->opts.ctfpath;
	uint64_t magic = 0;

	if (path == NULL || cc->ctfpath_checked)
		return;
	cc->ctfpath_checked = true;
	FILE *fp = fopen(path, "r");
	const char *why = NULL;
	if (fp == NULL)
		why = strerror(errno);
	else if (fread(&magic, sizeof(magic), 1, fp) != 1 || magic != 0x8b47f2a4d7623eebULL)
		why = "File is not in CTF or a CTF-containing ELF format";
	if (fp != NULL)
		fclose(fp);
	if (why != NULL)
		dt_dprintf(cc->core, "Cannot open CTF archive %s: %s; looking for in-module CTF instead.\n",
			   path, why);
	else
		dt_dprintf(cc->core, "CTF archive %s not read: kernel types come from BTF\n", path);
}

/* -x ctypes / -x dtypes: after every compile, successful or not, as DTrace. */
static void write_type_files(struct dt_compiler *cc)
{
	if (cc->core->opts.cdefs_fd >= 0)
		dt_ctf_write(cc, cc->core->opts.cdefs_fd, false);
	if (cc->core->opts.ddefs_fd >= 0)
		dt_ctf_write(cc, cc->core->opts.ddefs_fd, true);
}

dtrace_prog_t *dt_compile(struct dt_compiler *cc, const char *text, const char *name,
			      enum dtrace_pspec kind, unsigned flags, int argc, char *const argv[])
{
	struct dt_pcb pcb;
	size_t len;
	/* As DTrace's dt_cflags: -x cpp is -C for every compile. */
	if (cc->core->opts.cpp)
		flags |= DTRACE_C_CPP;
	char *src = read_source(cc, text, flags, &len);
	struct dtrace_prog *pgp = NULL;

	if (src == NULL)
		return NULL;
	check_ctfpath(cc);
	if (dt_ulib_load(cc) < 0) {
		free(src);
		return NULL;
	}
	if (flags & DTRACE_C_CPP) {
		char *out = NULL;
		size_t outlen = 0;
		if (dt_cpp_run(cc, src, len, (flags & DTRACE_C_FILE) ? text : NULL, &out,
			       &outlen) < 0) {
			free(src);
			return NULL;
		}
		free(src);
		src = out;
		len = outlen;
	}
	int rc = dt_pcb_init(&pcb, cc, src, len, name, flags, kind, argc, argv);
	free(src);
	if (rc < 0)
		return NULL;
	bool *refs = pcb.argref;
	pgp = calloc(1, sizeof(*pgp));
	if (pgp == NULL) {
		free(refs);
		dt_set_error(cc->core, -ENOMEM, "out of memory");
		return NULL;
	}
	if (setjmp(pcb.jb) != 0) {
		free(refs);
		for (size_t i = 0; i < pgp->stmts.n; i++) {
			dt_vec_free(&pgp->stmts.v[i]->probes);
			dt_vec_free(&pgp->stmts.v[i]->probe_pdesc);
		}
		free(pgp->stmts.v);
		free(pgp);
		dt_compile_hint(cc->reg);
		write_type_files(cc);
		return NULL;
	}
	pcb.check_as_parsed = true;
	dt_parse_program(&pcb);
	/* As DTrace, after parsing (declarations were checked as parsed) and before the clauses are: pragmas naming nothing, unused arguments. */
	dt_pragma_check_unused(&pcb);
	dt_macro_check_unused(&pcb);
	dt_sema_program(&pcb);
	struct bo_object *obj = object(&pcb);
	if (obj->source_name == NULL) {
		obj->source_name = name ? dt_arena_strdup(&cc->core->arena, name) : "<string>";
		obj->source_lines = dt_pcb_lines(&pcb, &obj->nsource_lines);
	}
	for (struct dt_node *n = pcb.root; n != NULL; n = n->next) {
		if (n->kind == N_CLAUSE)
			compile_clause(&pcb, pgp, n);
		if (n->kind == N_PROVIDER)
			pgp->nproviders++;
	}
	/* Provider definitions, for dtrace -h. */
	if (pgp->nproviders > 0) {
		size_t k = 0;
		pgp->providers = dt_palloc(&pcb, pgp->nproviders * sizeof(*pgp->providers));
		for (struct dt_node *n = pcb.root; n != NULL; n = n->next)
			if (n->kind == N_PROVIDER)
				pgp->providers[k++] = n;
	}
	/* DTrace checks actions as it generates code, after all clauses are cooked. */
	for (size_t i = 0; i < pgp->stmts.n; i++)
		dt_sema_act_clause(&pcb, pgp->stmts.v[i]);
	layout_aggs(&pcb, pgp);
	for (size_t i = 0; i < pgp->stmts.n; i++)
		dt_cg_clause(&pcb, obj, pgp->stmts.v[i]);
	free(refs);
	pgp->nprobes = count_probes(pgp);
	write_type_files(cc);
	/* The handle owns every program it compiled. */
	if (dt_vec_push(&cc->progs, pgp) < 0) {
		free(pgp->stmts.v);
		free(pgp);
		dt_set_error(cc->core, -ENOMEM, "out of memory");
		return NULL;
	}
	return pgp;
}

int dt_prog_exec(struct dt_compiler *cc, dtrace_prog_t *pgp)
{
	if (pgp->execed)
		return 0;
	if (cc->core->active)
		return dt_set_error(cc->core, -EBUSY, "tracing is already active");
	for (size_t i = 0; i < pgp->stmts.n; i++) {
		struct dt_stmt *st = pgp->stmts.v[i];
		struct dt_cdesc *cd = dt_arena_zalloc(&cc->core->arena, sizeof(*cd));
		if (cd == NULL || dt_vec_push(&cc->stmts, st) < 0 ||
		    dt_vec_push(&cc->descs->cdescs, cd) < 0)
			return dt_set_error(cc->core, -ENOMEM, "out of memory");
		for (size_t k = 0; k < st->nparts; k++)
			if (dt_vec_push(&cc->obj->funcs, st->parts[k]) < 0)
				return dt_set_error(cc->core, -ENOMEM, "out of memory");
		cd->clause = st->id;
		cd->nprobes = st->probes.n;
		cd->probes = st->probes.v;
		cd->pdesc = st->probe_pdesc.v;
	}
	pgp->execed = true;
	return 0;
}
