/*
 * The aggregation consumer's internals: in-memory snapshots, value math,
 * sorting and printing.  Everything here works on plain memory, so that the
 * unit tests drive it without BPF; agg_map.c is the thin layer that fills
 * snapshots from (and writes clear/trunc back to) the per-CPU BPF maps.
 */
#ifndef DT_AGG_IMPL_H
#define DT_AGG_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/util.h"
#include "consumer/agg.h"
#include "consumer/printf.h"

struct dt_consumer;

/* ---- snapshots --------------------------------------------------------- */

/*
 * The merged content of one aggregation.  Entries are fixed-size records
 * in one array (no allocation per key): the key (key_size bytes, padded to
 * 8), the value merged over the CPUs (nwords 64-bit words), a cache of what
 * the value sorts by (for the functions where that is costly to compute),
 * then, with aggpercpu, each CPU's own value.
 */
struct dt_aggsnap {
	const struct dt_aggdesc *ad;
	uint32_t nwords;	/* 64-bit words in a value */
	uint32_t valoff;	/* merged value */
	uint32_t sortoff;	/* sort cache (0: none) */
	uint32_t cpuoff;	/* per-CPU values (when ncpus > 0) */
	uint32_t stride;	/* bytes per entry */
	bool keep_percpu;	/* keep each CPU's value (aggpercpu) */
	int ncpus;		/* CPUs kept per entry (set by the first add) */
	size_t n, cap;
	uint8_t *data;
};

void dt_aggsnap_init(struct dt_aggsnap *s, const struct dt_aggdesc *ad, bool keep_percpu);
void dt_aggsnap_free(struct dt_aggsnap *s);
/*
 * Add a key with its per-CPU values: `ncpus` blocks of `cpu_stride` bytes,
 * each value_size bytes of 64-bit words, as a per-CPU map lookup returns
 * them.  Keys must be distinct.  0, -EINVAL (values too small) or -ENOMEM.
 */
int dt_aggsnap_add(struct dt_aggsnap *s, const void *key, const void *vals, int ncpus,
		   size_t cpu_stride);
/* Fill the sort caches once every key is in. */
void dt_aggsnap_finish(struct dt_aggsnap *s);

static inline uint8_t *dt_aggsnap_ent(const struct dt_aggsnap *s, size_t i)
{
	return s->data + i * s->stride;
}

static inline const int64_t *dt_aggent_val(const struct dt_aggsnap *s, const uint8_t *e)
{
	return (const int64_t *)(const void *)(e + s->valoff);
}

/* An unsigned integer of 1, 2, 4 or 8 bytes as a key stores it. */
static inline uint64_t dt_agg_load_uint(const uint8_t *p, uint32_t size)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	memcpy(&v, p, size);
	switch (size) {
	case 1: return v.u8;
	case 2: return v.u16;
	case 4: return v.u32;
	default: return v.u64;
	}
}

static inline bool dt_agg_int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

static inline const int64_t *dt_aggent_cpu(const struct dt_aggsnap *s, const uint8_t *e, int cpu)
{
	return (const int64_t *)(const void *)(e + s->cpuoff) + (size_t)cpu * s->nwords;
}

/*
 * An entry with every value word 0 and the snapshot's layout: what DTrace
 * prints for an aggregation that has no value for a key of a joined
 * printa().  Caller frees.
 */
uint8_t *dt_aggsnap_zero_entry(const struct dt_aggsnap *s);

/* ---- values (agg_value.c) ---------------------------------------------- */

/* Words in a value of this aggregation (value_size / 8, at least 1). */
uint32_t dt_aggval_nwords(const struct dt_aggdesc *ad);
/* A per-CPU value that has aggregated nothing: 0, or min/max's sentinel. */
void dt_aggval_empty(const struct dt_aggdesc *ad, int64_t *w, uint32_t nwords);
/* Fold one CPU's value into `dst` (which starts as dt_aggval_empty). */
void dt_aggval_fold(const struct dt_aggdesc *ad, int64_t *dst, const int64_t *src,
		    uint32_t nwords);
/* One CPU's value as aggpercpu prints it (min/max of an idle CPU: its sentinel). */
const int64_t *dt_aggval_cpu_view(const struct dt_aggdesc *ad, const int64_t *src,
				  uint32_t nwords, int64_t *tmp);

/* avg() as the default layout prints it: signed sum / normal / count, 0 if empty. */
int64_t dt_aggval_avg(const int64_t *w, uint64_t normal);
/* avg() as printa's %@ prints it: the same in unsigned arithmetic (pfprint_average). */
uint64_t dt_aggval_avg_unsigned(const int64_t *w, uint64_t normal);
/* stddev(): DTrace's integer sqrt(sumsq/normal/normal/n - (sum/normal/n)^2), 0 if empty. */
uint64_t dt_aggval_stddev(const int64_t *w, uint64_t normal);

/* What a histogram sorts by: the weighted sum of its buckets, then the zero bucket. */
struct dt_quantkey {
	long double total;
	int64_t zero;
};
void dt_aggval_quantkey(const struct dt_aggdesc *ad, const int64_t *b, struct dt_quantkey *k);

/* DTrace divides by normal as `(long long)v / (uint64_t)normal`: unsigned. */
static inline long long dt_aggval_normal(int64_t v, uint64_t normal)
{
	return (long long)((uint64_t)v / (normal ? normal : 1));
}

/* ---- sorting (agg_sort.c) ---------------------------------------------- */

struct dt_aggsort_opts {
	bool keysort;		/* aggsortkey */
	bool rev;		/* aggsortrev */
	int keypos;		/* aggsortkeypos */
	int sortpos;		/* aggsortpos (joined printa) */
};

void dt_aggsort_opts_get(const struct dt_consumer *cs, struct dt_aggsort_opts *o);

/* DTrace's key order: component by component from keypos, wrapping around. */
int dt_agg_keycmp(const struct dt_aggdesc *ad, const uint8_t *ka, const uint8_t *kb, int keypos);
/* DTrace's value order for this aggregation's function. */
int dt_agg_valcmp(const struct dt_aggsnap *s, const uint8_t *ea, const uint8_t *eb);

/* The entries in DTrace's order (caller frees the array).  0 or -ENOMEM. */
int dt_aggsnap_sort(const struct dt_aggsnap *s, const struct dt_aggsort_opts *o,
		    const uint8_t ***sorted);
/* trunc()'s orders: by value then key, ignoring the options (descending if rev). */
int dt_aggsnap_sort_by_value(const struct dt_aggsnap *s, bool rev, const uint8_t ***sorted);

/*
 * printa() of several aggregations: the union of their keys, each row
 * holding, in argument order, every aggregation's entry for the key (or
 * its zero entry), sorted as dtrace_aggregate_walk_joined sorts them.
 * snaps[i] is the snapshot of argument i (the same pointer for an
 * aggregation given twice, with the same aggid).
 */
struct dt_aggjoin {
	size_t nrows, width;	/* width = number of arguments */
	/*
	 * By row, width + 1 entries: each argument's, then the entry whose
	 * key the row prints (the representative key).
	 */
	const uint8_t **cells;
	uint8_t **zero;		/* per position: its zero entry */
};
int dt_agg_join(struct dt_aggsnap *const *snaps, const uint32_t *aggids, size_t n,
		const struct dt_aggsort_opts *o, struct dt_aggjoin *j);
void dt_agg_join_free(struct dt_aggjoin *j);

/* ---- histograms (agg_quant_print.c) ------------------------------------ */

void dt_agg_print_quantize(struct dt_strbuf *out, const int64_t *b, uint64_t normal);
void dt_agg_print_lquantize(struct dt_strbuf *out, const struct dt_aggdesc *ad,
			    const int64_t *b, uint64_t normal);
void dt_agg_print_llquantize(struct dt_strbuf *out, const struct dt_aggdesc *ad,
			     const int64_t *b, uint64_t normal);

/* ---- bucket bounds (agg_bounds.c) -------------------------------------- */

/* Buckets of a quantize/lquantize/llquantize value (0 for other functions). */
uint32_t dt_agg_nbuckets(const struct dt_aggdesc *ad);
/*
 * The values bucket b holds, [*min, *max] inclusive; false when it holds
 * none (llquantize's "ghost" buckets, b out of range, not a histogram).
 */
bool dt_agg_bucket_bounds(const struct dt_aggdesc *ad, uint32_t b, int64_t *min, int64_t *max);

/* ---- printing (agg_print.c) -------------------------------------------- */

struct dt_aggprint {
	const struct dt_pf_syms *syms;	/* NULL: addresses in hex */
	int stackindent;
	bool rawbytes;
};

/* The text of a symbol-like key: "mod`func", "mod", or "0x..." when unknown. */
void dt_agg_sym_text(struct dt_strbuf *sb, const struct dt_pf_syms *syms,
		     const struct dt_aggkey *k, const uint8_t *p);
/*
 * One key component's text without the default layout's padding: an
 * integer as printed for its type's size, a string's bytes up to its NUL,
 * a symbol as dt_agg_sym_text; nothing for a stack.
 */
void dt_agg_key_text(struct dt_strbuf *sb, const struct dt_pf_syms *syms,
		     const struct dt_aggkey *k, const uint8_t *p);
/* One key component, one value, as the default layout prints them (dt_print_datum). */
void dt_agg_print_key(struct dt_strbuf *out, const struct dt_aggprint *pc,
		      const struct dt_aggdesc *ad, const uint8_t *key);
void dt_agg_print_value(struct dt_strbuf *out, const struct dt_aggdesc *ad, const int64_t *w,
			uint64_t normal);
/* The value, then with aggpercpu each CPU's (none for a zero entry). */
void dt_agg_print_value_cpus(struct dt_strbuf *out, const struct dt_aggsnap *s, const uint8_t *e,
			     uint64_t normal, bool is_zero);
/* The default layout of one entry: keys, value, per-CPU values, newline (dt_print_aggs). */
void dt_agg_print_entry(struct dt_strbuf *out, const struct dt_aggprint *pc,
			const struct dt_aggsnap *s, const uint8_t *e, uint64_t normal);

/* ---- printa() with a format (agg_printa_fmt.c) -------------------------- */

/* What the format's conversions read: the keys, then each %@ value. */
struct dt_aggfmt {
	struct dt_pf_arg *keys;
	uint64_t *keyval;	/* integer keys narrowed to their type's size */
	struct dt_pf_arg *vals;
	uint64_t *scratch;	/* avg()/stddev() results */
	struct dt_strbuf *text;	/* rendered histograms */
	size_t nkeys, nvals;
};

/* 0 or -ENOMEM (dt_aggfmt_fini cleans up either way). */
int dt_aggfmt_init(struct dt_aggfmt *a, size_t nkeys, size_t nvals);
void dt_aggfmt_fini(struct dt_aggfmt *a);
/* The keys of the entry printed next. */
void dt_aggfmt_keys(struct dt_aggfmt *a, const struct dt_aggdesc *ad, const uint8_t *key);
/* %@ value i: entry e of snapshot s, divided by normal. */
void dt_aggfmt_value(struct dt_aggfmt *a, size_t i, const struct dt_aggsnap *s,
		     const uint8_t *e, uint64_t normal);
/* Print one entry; 0, -EINVAL (the format wants more than there is), -ENOMEM. */
int dt_aggfmt_print(struct dt_strbuf *out, const struct dt_pf_format *fmt,
		    const struct dt_aggprint *pc, struct dt_aggfmt *a);

/* ---- the handle's state (agg_state.c) ---------------------------------- */

/* Where aggregation data lives.  The default reads the loaded object's maps. */
struct dt_agg_source {
	void *ctx;
	/* Fill `snap` (initialised, empty) with the aggregation's keys and values. */
	int (*read)(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *snap);
	/* clear(): reset these keys' values to dt_aggval_empty on every CPU. */
	int (*reset)(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n);
	/* trunc(): delete these keys. */
	int (*remove)(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys,
		      size_t n);
};

/* Replace the data source (tests); NULL restores the BPF maps.  0 or -ENOMEM. */
int dt_agg_set_source(struct dt_consumer *cs, const struct dt_agg_source *src);
/* The BPF-map source (agg_map.c); ctx is the consumer (struct dt_consumer). */
extern const struct dt_agg_source dt_aggmap_source;
/* The same on a map fd (batch false: get_next_key + lookup only). */
int dt_aggmap_read_fd(int fd, const struct dt_aggdesc *ad, struct dt_aggsnap *s, bool batch);
int dt_aggmap_reset_fd(int fd, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n);
int dt_aggmap_remove_fd(int fd, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n);

/* The aggregation with this id, or NULL with the handle's error set. */
const struct dt_aggdesc *dt_agg_desc(struct dt_consumer *cs, uint32_t aggid);
/*
 * A snapshot of one aggregation to print (the caller's, to free): the
 * current firing's (a copy) or a fresh one, sym() & co. keys merged, sort
 * caches filled.  0 or -errno (error set).
 */
int dt_agg_snapshot(struct dt_consumer *cs, const struct dt_aggdesc *ad, struct dt_aggsnap *s);
uint64_t dt_agg_normal(struct dt_consumer *cs, uint32_t aggid);
bool dt_agg_printed(struct dt_consumer *cs, uint32_t aggid);
void dt_agg_set_printed(struct dt_consumer *cs, uint32_t aggid);
void dt_aggprint_get(struct dt_consumer *cs, struct dt_aggprint *pc);

#endif
