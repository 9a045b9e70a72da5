/*
 * Aggregation descriptions: what the compiler tells the consumer about
 * each aggregation (its function, key layout, value layout and map), and
 * the value layouts the BPF side keeps in the per-CPU hash maps.
 *
 * Map: one BPF_MAP_TYPE_PERCPU_HASH per aggregation, named map_name.  A
 * clause with more aggregations than a program may use maps reaches them
 * through arrays of maps (BPF_MAP_TYPE_ARRAY_OF_MAPS, struct
 * dt_aggouter) holding the maps of one kind, key and value size: the
 * loader puts each such aggregation's map at its slot.
 * Key: the key tuple, each component at an 8-aligned offset (integers as
 * 8-byte values, sign- or zero-extended from their type; strings as
 * strsize bytes, NUL-padded).
 * An aggregation without keys (dt_agg_keyless) has instead a
 * BPF_MAP_TYPE_PERCPU_ARRAY of one entry (u32 key 0), which always
 * exists: its value is followed by an "updated" word, so that the consumer
 * tells an entry never updated (every word zero on every CPU: nothing to
 * print) from one that was.  Updates that may leave every word as it was
 * (sum, quantize & co. with an increment) set it to 1; the others leave a
 * count nonzero.  clear() sets it with the values emptied, trunc() zeroes
 * the whole entry.  The consumer's snapshots give it an 8-byte zero key.
 * Value (per CPU, all 64-bit words, native endian):
 *
 *   count      u64 count
 *   sum        s64 sum
 *   min        s64 min, u64 nseen      (nseen 0: no value on this CPU)
 *   max        s64 max, u64 nseen
 *   avg        u64 count, s64 sum
 *   stddev     u64 count, s64 sum, u64 sumsq_lo, u64 sumsq_hi
 *                                      (128-bit sum of squares)
 *   quantize   s64 bucket[DT_QUANT_NBUCKETS]: bucket DT_QUANT_ZERO holds 0,
 *              DT_QUANT_ZERO + k (k >= 1) holds [2^(k-1), 2^k - 1],
 *              DT_QUANT_ZERO - k holds [-(2^k - 1), -2^(k-1)]
 *   lquantize  s64 bucket[levels + 2]: bucket 0 is < base, bucket i
 *              (1..levels) is [base + (i-1)*step, base + i*step - 1],
 *              bucket levels+1 is >= base + levels*step
 *   llquantize s64 bucket[nbuckets] as DTrace v2 lays them out, in
 *              numerical order with negative values mirrored:
 *              nbuckets = 2 * (hmag - lmag + 1) * (steps - steps/factor) + 3;
 *              bucket 0 is <= -factor^(hmag+1), the middle bucket
 *              1 + (hmag - lmag + 1) * (steps - steps/factor) holds
 *              |v| < factor^lmag, the last is >= factor^(hmag+1), and each
 *              magnitude lmag..hmag has steps - steps/factor buckets on
 *              either side (see base/quant.h for the exact index)
 *
 * Bucket values are signed: the increment argument may be negative.
 */
#ifndef DT_AGGDESC_H
#define DT_AGGDESC_H

#include <stdbool.h>
#include <stdint.h>

struct dt_type;

/* The aggregating functions. */
enum dt_aggfunc {
	AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX, AGG_STDDEV, AGG_QUANTIZE,
	AGG_LQUANTIZE, AGG_LLQUANTIZE,
};

#define DT_QUANT_NBUCKETS 127
#define DT_QUANT_ZERO 63

enum dt_aggkey_kind {
	DT_AGGKEY_INT,		/* integer or pointer, 8 bytes */
	DT_AGGKEY_STRING,	/* strsize bytes */
	DT_AGGKEY_STACK,	/* stack(): u64 pcs, 0-terminated */
	DT_AGGKEY_USTACK,	/* ustack(): u64 tgid then pcs */
	DT_AGGKEY_SYM,		/* sym()/func(): kernel address */
	DT_AGGKEY_MOD,		/* mod(): kernel address */
	DT_AGGKEY_USYM,		/* usym()/ufunc(): u64 tgid, u64 address */
	DT_AGGKEY_UMOD,		/* umod(): u64 tgid, u64 address */
	DT_AGGKEY_UADDR,	/* uaddr(): u64 tgid, u64 address (printed with its offset) */
};

struct dt_aggkey {
	enum dt_aggkey_kind kind;
	struct dt_type *type;	/* the key's D type (for printing integers) */
	uint32_t off;		/* offset in the key */
	uint32_t size;		/* bytes in the key */
	uint32_t type_size;	/* size of the D type (1, 2, 4, 8): how DTrace prints it */
	bool is_signed;
	/*
	 * What the key is named in every use: a variable (execname, pid, a
	 * global; "x" for self->x and this->x); NULL for an expression or
	 * when uses differ.  Output formats that name keys use it.
	 */
	const char *name;
};

struct dt_aggdesc {
	uint32_t id;
	const char *name;	/* without '@'; "_" for the anonymous aggregation @ */
	int func;		/* enum dt_aggfunc */
	int nkeys;
	struct dt_aggkey *keys;
	uint32_t key_size;
	uint32_t value_size;	/* bytes per CPU */
	const char *map_name;
	int32_t outer;		/* its array of maps (dt_descs.agg_outer), or -1: none */
	uint32_t outer_slot;	/* ... and its index there */
	/* The value's type size and signedness (for sum/min/max printing). */
	uint32_t arg_size;
	bool arg_signed;
	/*
	 * Every use aggregates a time difference, timestamp, vtimestamp or
	 * walltimestamp minus something: the values are nanoseconds.
	 */
	bool value_ns;
	/* lquantize */
	int64_t lq_base;
	int64_t lq_step;
	uint32_t lq_levels;
	/* llquantize */
	uint16_t llq_factor, llq_lmag, llq_hmag, llq_steps;
	uint32_t nbuckets;	/* quantize/lquantize/llquantize */
};

/* An array of aggregation maps of one kind, key and value size (as the maps are made). */
struct dt_aggouter {
	const char *name;
	bool keyless;		/* per-CPU arrays of one entry (else per-CPU hashes) */
	uint32_t key_size, value_size;
	uint32_t n;		/* slots (aggregations) */
};

/* Whether ad has no keys: its map is a one-entry per-CPU array. */
static inline bool dt_agg_keyless(const struct dt_aggdesc *ad)
{
	return ad->nkeys == 0;
}

/* The key size of ad's map. */
static inline uint32_t dt_agg_map_key_size(const struct dt_aggdesc *ad)
{
	return dt_agg_keyless(ad) ? 4 : ad->key_size;
}

/* The value size of ad's map, per CPU: a keyless one's has the "updated" word. */
static inline uint32_t dt_agg_map_value_size(const struct dt_aggdesc *ad)
{
	return dt_agg_keyless(ad) ? ad->value_size + 8 : ad->value_size;
}

/* The bucket index of value v in an llquantize aggregation. */
uint32_t dt_llquantize_bucket(const struct dt_aggdesc *ad, int64_t v);
/* Number of llquantize buckets for (factor, lmag, hmag, steps). */
uint32_t dt_llquantize_nbuckets(uint16_t factor, uint16_t lmag, uint16_t hmag, uint16_t steps);

#endif
