/*
 * The profile (pprof.h) from the aggregations' samples: one sample type
 * per aggregation, every location, mapping and function once, the strings
 * in one table; packed by libprotobuf-c (profile.proto, compiled at build
 * time), then gzipped as the format requires on disk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/htab.h"
#include "consumer/gzip.h"
#include "consumer/pprof_impl.h"
#include "consumer/profile.pb-c.h"	/* generated from proto/profile.proto */

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* What picks the main binary among the mappings. */
struct mapuse {
	bool exe;		/* a process's program */
	size_t nsamples;	/* samples with a frame in it */
	size_t last;		/* the last of them + 1 */
};

/* Everything the packed profile points to, freed at once. */
struct build {
	Profile p;
	struct dt_htab strs;		/* string -> index + 1 */
	DT_VEC(char *) table;		/* the string table (not owned) */
	struct dt_htab ids;		/* location/mapping/function key -> id */
	DT_VEC(char *) keys;		/* the keys (owned) */
	DT_VEC(void *) mem;		/* every allocation */
	DT_VEC(Location *) locs;
	DT_VEC(Mapping *) maps;
	DT_VEC(struct mapuse) mapuse;	/* per mapping */
	DT_VEC(Function *) funcs;
	bool oom;
};

static void *alloc(struct build *b, size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL || dt_vec_push(&b->mem, p) < 0) {
		free(p);
		b->oom = true;
		return NULL;
	}
	return p;
}

/* The string's index in the table (0 for ""). */
static int64_t str(struct build *b, const char *s)
{
	if (s == NULL || s[0] == '\0')
		return 0;
	uintptr_t at = (uintptr_t)dt_htab_get(&b->strs, s);
	if (at != 0)
		return (int64_t)at - 1;
	if (dt_vec_push(&b->table, (char *)s) < 0 ||
	    dt_htab_put(&b->strs, s, (void *)(uintptr_t)b->table.n) < 0) {
		b->oom = true;
		return 0;
	}
	return (int64_t)b->table.n - 1;
}

/* The id of what `key` names, 0 if new (the caller adds it as `next`). */
static uint64_t find(struct build *b, const char *key, uint64_t next)
{
	uintptr_t id = (uintptr_t)dt_htab_get(&b->ids, key);
	char *k;

	if (id != 0)
		return id;
	if ((k = strdup(key)) == NULL || dt_vec_push(&b->keys, k) < 0 ||
	    dt_htab_put(&b->ids, k, (void *)(uintptr_t)next) < 0) {
		b->oom = true;
	}
	return 0;
}

static uint64_t mapping(struct build *b, const struct dt_pprof_frame *f)
{
	char key[4200];

	if (f->file == NULL)
		return 0;
	snprintf(key, sizeof(key), "m%c%" PRIu64 ":%" PRIx64 ":%s", f->user ? 'u' : 'k',
		 f->user ? f->pid : 0, f->start, f->file);
	uint64_t id = find(b, key, b->maps.n + 1);
	if (id != 0 || b->oom)
		return id;
	Mapping *m = alloc(b, sizeof(*m));
	struct mapuse u = { .exe = f->exe };
	if (m == NULL || dt_vec_push(&b->maps, m) < 0 || dt_vec_push(&b->mapuse, u) < 0) {
		b->oom = true;
		return 0;
	}
	perftools__profiles__mapping__init(m);
	m->id = b->maps.n;
	m->memory_start = f->start;
	m->memory_limit = f->limit;
	m->file_offset = f->offset;
	m->filename = str(b, f->file);
	m->has_functions = true;	/* until a location in it has none */
	return m->id;
}

static uint64_t function(struct build *b, const struct dt_pprof_frame *f)
{
	char key[4200];

	snprintf(key, sizeof(key), "f%s`%s", f->mod != NULL ? f->mod : "", f->func);
	uint64_t id = find(b, key, b->funcs.n + 1);
	if (id != 0 || b->oom)
		return id;
	Function *fn = alloc(b, sizeof(*fn));
	if (fn == NULL || dt_vec_push(&b->funcs, fn) < 0) {
		b->oom = true;
		return 0;
	}
	perftools__profiles__function__init(fn);
	fn->id = b->funcs.n;
	fn->name = str(b, f->func);
	fn->system_name = fn->name;
	return fn->id;
}

static uint64_t location(struct build *b, const struct dt_pprof_frame *f)
{
	char key[64];

	snprintf(key, sizeof(key), "l%c%" PRIu64 ":%" PRIx64, f->user ? 'u' : 'k',
		 f->user ? f->pid : 0, f->addr);
	uint64_t id = find(b, key, b->locs.n + 1);
	if (id != 0 || b->oom)
		return id;
	Location *l = alloc(b, sizeof(*l));
	if (l == NULL || dt_vec_push(&b->locs, l) < 0) {
		b->oom = true;
		return 0;
	}
	perftools__profiles__location__init(l);
	l->id = b->locs.n;
	l->address = f->addr;
	l->mapping_id = mapping(b, f);
	if (f->func != NULL) {
		Line *ln = alloc(b, sizeof(*ln));
		Line **lines = alloc(b, sizeof(*lines));
		if (ln == NULL || lines == NULL)
			return 0;
		perftools__profiles__line__init(ln);
		ln->function_id = function(b, f);
		lines[0] = ln;
		l->line = lines;
		l->n_line = 1;
	} else if (l->mapping_id != 0) {
		b->maps.v[l->mapping_id - 1]->has_functions = false;
	}
	return l->id;
}

/*
 * pprof takes the first mapping for the main binary ("File:"): that is
 * the program that most samples ran, not whichever came first.
 */
static void main_binary_first(struct build *b)
{
	size_t best = 0;

	for (size_t i = 0; i < b->mapuse.n; i++)
		if (b->mapuse.v[i].exe && (!b->mapuse.v[best].exe ||
					   b->mapuse.v[i].nsamples > b->mapuse.v[best].nsamples))
			best = i;
	if (best == 0)
		return;
	Mapping *m = b->maps.v[0];
	b->maps.v[0] = b->maps.v[best];
	b->maps.v[best] = m;
	b->maps.v[0]->id = 1;
	b->maps.v[best]->id = best + 1;
	for (size_t i = 0; i < b->locs.n; i++) {
		Location *l = b->locs.v[i];
		if (l->mapping_id == 1)
			l->mapping_id = best + 1;
		else if (l->mapping_id == best + 1)
			l->mapping_id = 1;
	}
}

static void add_sample(struct build *b, const struct dt_pprof_agg *pa,
		       const struct dt_pprof_sample *s, size_t type, size_t ntypes, Sample *out,
		       size_t k)
{
	perftools__profiles__sample__init(out);
	out->location_id = alloc(b, s->nframes * sizeof(*out->location_id));
	out->value = alloc(b, ntypes * sizeof(*out->value));
	out->label = alloc(b, s->nlabels * sizeof(*out->label));
	Label *labels = alloc(b, s->nlabels * sizeof(*labels));
	if (b->oom)
		return;
	for (size_t i = 0; i < s->nframes && !b->oom; i++) {
		out->location_id[i] = location(b, &pa->frames.v[s->frame0 + i]);
		uint64_t m = out->location_id[i] ? b->locs.v[out->location_id[i] - 1]->mapping_id : 0;
		if (m != 0 && b->mapuse.v[m - 1].last != k + 1) {
			b->mapuse.v[m - 1].last = k + 1;
			b->mapuse.v[m - 1].nsamples++;
		}
	}
	if (b->oom)
		return;
	out->n_location_id = s->nframes;
	out->value[type] = s->value;
	out->n_value = ntypes;
	for (size_t i = 0; i < s->nlabels; i++) {
		const struct dt_pprof_label *l = &pa->labels.v[s->label0 + i];
		perftools__profiles__label__init(&labels[i]);
		labels[i].key = str(b, l->key);
		if (l->str != NULL)
			labels[i].str = str(b, l->str);
		else
			labels[i].num = l->num;
		out->label[i] = &labels[i];
	}
	out->n_label = s->nlabels;
}

static void build(struct build *b, struct dt_pprof_agg *const *aggs, size_t n)
{
	Profile *p = &b->p;
	size_t ntypes = 0, nsamples = 0;

	perftools__profiles__profile__init(p);
	if (dt_vec_push(&b->table, "") < 0)	/* index 0 */
		b->oom = true;
	for (size_t a = 0; a < n; a++) {
		if (aggs[a] == NULL)
			continue;
		ntypes++;
		nsamples += aggs[a]->samples.n;
	}
	p->sample_type = alloc(b, ntypes * sizeof(*p->sample_type));
	ValueType *types = alloc(b, ntypes * sizeof(*types));
	p->sample = alloc(b, nsamples * sizeof(*p->sample));
	Sample *samples = alloc(b, nsamples * sizeof(*samples));
	p->comment = alloc(b, ntypes * sizeof(*p->comment));
	if (b->oom)
		return;
	size_t t = 0, k = 0;
	for (size_t a = 0; a < n && !b->oom; a++) {
		const struct dt_pprof_agg *pa = aggs[a];
		if (pa == NULL)
			continue;
		perftools__profiles__value_type__init(&types[t]);
		types[t].type = str(b, pa->type);
		types[t].unit = str(b, pa->unit);
		p->sample_type[t] = &types[t];
		p->comment[t] = str(b, pa->comment);
		for (size_t s = 0; s < pa->samples.n && !b->oom; s++, k++) {
			add_sample(b, pa, &pa->samples.v[s], t, ntypes, &samples[k], k);
			p->sample[k] = &samples[k];
		}
		t++;
	}
	p->n_sample_type = ntypes;
	p->n_comment = ntypes;
	p->n_sample = k;
	if (!b->oom)
		main_binary_first(b);
	if (ntypes > 0)
		p->default_sample_type = types[0].type;
	p->location = b->locs.v;
	p->n_location = b->locs.n;
	p->mapping = b->maps.v;
	p->n_mapping = b->maps.n;
	p->function = b->funcs.v;
	p->n_function = b->funcs.n;
	p->string_table = b->table.v;
	p->n_string_table = b->table.n;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	p->time_nanos = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
}

int dt_pprof_write(struct dt_pprof_agg *const *aggs, size_t n, struct dt_strbuf *out)
{
	struct build b;
	int rc = 0;

	memset(&b, 0, sizeof(b));
	build(&b, aggs, n);
	uint8_t *packed = NULL;
	size_t len = 0;
	if (!b.oom) {
		len = perftools__profiles__profile__get_packed_size(&b.p);
		packed = malloc(len ? len : 1);
	}
	if (packed == NULL)
		rc = -ENOMEM;
	else if (perftools__profiles__profile__pack(&b.p, packed) != len)
		rc = -EIO;
	else
		rc = dt_gzip(packed, len, out);
	free(packed);
	for (size_t i = 0; i < b.mem.n; i++)
		free(b.mem.v[i]);
	for (size_t i = 0; i < b.keys.n; i++)
		free(b.keys.v[i]);
	dt_vec_free(&b.mem);
	dt_vec_free(&b.keys);
	dt_vec_free(&b.table);
	dt_vec_free(&b.locs);
	dt_vec_free(&b.maps);
	dt_vec_free(&b.mapuse);
	dt_vec_free(&b.funcs);
	dt_htab_free(&b.strs);
	dt_htab_free(&b.ids);
	return rc;
}
