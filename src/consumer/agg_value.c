/*
 * Aggregation values: merging the CPUs, and the arithmetic DTrace prints
 * and sorts by (dt_consume.c's dt_stddev and dt_print_average,
 * dt_printf.c's pfprint_average, dt_aggregate.c's *cmp helpers).  Sums
 * wrap as the BPF side's do: they are done on uint64_t, which also keeps
 * UBSan quiet.
 */
#include "consumer/agg_impl.h"

#include "base/aggdesc.h"
#include "base/quant.h"

uint32_t dt_aggval_nwords(const struct dt_aggdesc *ad)
{
	uint32_t n = ad->value_size / 8;

	return n ? n : 1;
}

/* min()/max() with a second word count the values each CPU folded in. */
static bool has_seen_word(const struct dt_aggdesc *ad, uint32_t nwords)
{
	return (ad->func == AGG_MIN || ad->func == AGG_MAX) && nwords >= 2;
}

static int64_t sentinel(const struct dt_aggdesc *ad)
{
	return ad->func == AGG_MIN ? INT64_MAX : INT64_MIN;
}

void dt_aggval_empty(const struct dt_aggdesc *ad, int64_t *w, uint32_t nwords)
{
	for (uint32_t i = 0; i < nwords; i++)
		w[i] = 0;
	if (ad->func == AGG_MIN || ad->func == AGG_MAX)
		w[0] = sentinel(ad);
}

static void add_words(int64_t *dst, const int64_t *src, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dst[i] = (int64_t)((uint64_t)dst[i] + (uint64_t)src[i]);
}

void dt_aggval_fold(const struct dt_aggdesc *ad, int64_t *dst, const int64_t *src,
		    uint32_t nwords)
{
	switch (ad->func) {
	case AGG_MIN:
	case AGG_MAX: {
		bool min = ad->func == AGG_MIN;

		if (has_seen_word(ad, nwords)) {
			if (src[1] == 0)
				return;		/* this CPU never saw a value */
			if (dst[1] == 0 || (min ? src[0] < dst[0] : src[0] > dst[0]))
				dst[0] = src[0];
			dst[1] = (int64_t)((uint64_t)dst[1] + (uint64_t)src[1]);
			return;
		}
		/*
		 * Without a seen word, a CPU that never fired holds 0 (the
		 * kernel zeroes the other CPUs' slots of a new per-CPU hash
		 * element): a 0 only counts when no CPU has anything else.
		 */
		if (src[0] == 0) {
			if (dst[0] == sentinel(ad))
				dst[0] = 0;
			return;
		}
		if (dst[0] == 0 || (min ? src[0] < dst[0] : src[0] > dst[0]))
			dst[0] = src[0];
		return;
	}
	case AGG_STDDEV:
		if (nwords >= 4) {
			uint64_t lo = (uint64_t)dst[2] + (uint64_t)src[2];

			dst[3] = (int64_t)((uint64_t)dst[3] + (uint64_t)src[3] + (lo < (uint64_t)src[2]));
			dst[2] = (int64_t)lo;
			add_words(dst, src, 2);
			return;
		}
		add_words(dst, src, nwords);
		return;
	default:
		/* count, sum, avg's (count, sum), the histograms: bucket-wise sums */
		add_words(dst, src, nwords);
		return;
	}
}

const int64_t *dt_aggval_cpu_view(const struct dt_aggdesc *ad, const int64_t *src,
				  uint32_t nwords, int64_t *tmp)
{
	if (has_seen_word(ad, nwords) && src[1] == 0) {
		tmp[0] = sentinel(ad);
		tmp[1] = 0;
		return tmp;
	}
	return src;
}

/* C's a / b, with DTrace's operands, minus the traps. */
static int64_t sdiv(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	if (a == INT64_MIN && b == -1)
		return INT64_MIN;
	return a / b;
}

int64_t dt_aggval_avg(const int64_t *w, uint64_t normal)
{
	if (w[0] == 0)
		return 0;
	return sdiv(sdiv(w[1], (int64_t)(normal ? normal : 1)), w[0]);
}

uint64_t dt_aggval_avg_unsigned(const int64_t *w, uint64_t normal)
{
	if (w[0] == 0)
		return 0;
	return (uint64_t)w[1] / (normal ? normal : 1) / (uint64_t)w[0];
}

/* floor(sqrt(x)), bit by bit as dt_sqrt_128 computes it. */
static uint64_t isqrt128(unsigned __int128 x)
{
	unsigned __int128 res = 0, bit = (unsigned __int128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)res;
}

uint64_t dt_aggval_stddev(const int64_t *w, uint64_t normal)
{
	uint64_t n = (uint64_t)w[0], nm = normal ? normal : 1;

	if (n == 0)
		return 0;
	unsigned __int128 sumsq = ((unsigned __int128)(uint64_t)w[3] << 64) | (uint64_t)w[2];
	/* DTrace divides the sum of squares by normal twice (normal squared). */
	unsigned __int128 avg_of_squares = sumsq / nm / nm / n;
	int64_t avg = sdiv(sdiv(w[1], (int64_t)nm), (int64_t)n);
	uint64_t a = avg < 0 ? 0 - (uint64_t)avg : (uint64_t)avg;
	/* DTrace subtracts in 128 bits without checking: it wraps as well. */
	return isqrt128(avg_of_squares - (unsigned __int128)a * a);
}

/* DTrace's int arithmetic on lquantize()'s 32-bit base, wrapping. */
static int32_t add32(int32_t a, int64_t b)
{
	return (int32_t)(uint32_t)((uint32_t)a + (uint32_t)b);
}

static void lquant_key(const struct dt_aggdesc *ad, const int64_t *b, struct dt_quantkey *k)
{
	int32_t base = (int32_t)ad->lq_base;
	uint16_t step = (uint16_t)ad->lq_step, levels = (uint16_t)ad->lq_levels;
	long double total = (long double)b[0] * (long double)add32(base, -1);
	bool zero_found = false;

	k->zero = 0;
	if (add32(base, -1) == 0) {
		k->zero = b[0];
		zero_found = true;
	}
	for (uint16_t i = 0; i < levels; i++, base = add32(base, step)) {
		total += (long double)b[i + 1] * (long double)base;
		if (!zero_found && base == 0) {
			k->zero = b[i + 1];
			zero_found = true;
		}
	}
	k->total = total + (long double)b[levels + 1] * (long double)add32(base, 1);
	if (!zero_found && add32(base, 1) == 0)
		k->zero = b[levels + 1];
}

static int64_t wrap_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static int64_t wrap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/* dt_aggregate_llquantizedsum: the overflow buckets do not count. */
static void llquant_key(const struct dt_aggdesc *ad, const int64_t *b, struct dt_quantkey *k)
{
	int factor = ad->llq_factor, lmag = ad->llq_lmag, hmag = ad->llq_hmag;
	int steps = ad->llq_steps, sf = steps / factor;
	int bin0 = (int)dt_llquantize_underflow(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						ad->llq_steps);
	long double pw = 1;

	for (int m = 0; m < lmag; m++)
		pw *= factor;
	long double total = pw * (long double)wrap_sub(b[bin0 + 1], b[bin0 - 1]);
	int i = 1;
	if (lmag == 0 && steps > factor) {
		for (int step = 2; step <= factor; step++) {
			i += sf;
			total += (long double)wrap_mul(step, wrap_sub(b[bin0 + i], b[bin0 - i]));
		}
		lmag = 1;
	}
	long double scale = 1;
	for (int m = 0; m < lmag + 1; m++)
		scale *= factor;
	scale /= steps;
	for (int mag = lmag; mag <= hmag; mag++) {
		for (int step = sf + 1; step <= steps; step++) {
			i++;
			total += step * scale * (long double)wrap_sub(b[bin0 + i], b[bin0 - i]);
		}
		scale *= factor;
	}
	k->total = total;
	k->zero = b[bin0];
}

void dt_aggval_quantkey(const struct dt_aggdesc *ad, const int64_t *b, struct dt_quantkey *k)
{
	switch (ad->func) {
	case AGG_QUANTIZE:
		k->total = 0;
		for (unsigned i = 0; i < DT_QUANTIZE_NBUCKETS; i++)
			k->total += (long double)dt_quantize_bucket_value(i) * (long double)b[i];
		k->zero = b[DT_QUANTIZE_ZERO];
		return;
	case AGG_LQUANTIZE:
		lquant_key(ad, b, k);
		return;
	case AGG_LLQUANTIZE:
		llquant_key(ad, b, k);
		return;
	default:
		k->total = 0;
		k->zero = 0;
		return;
	}
}
