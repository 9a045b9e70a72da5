/*
 * The values each histogram bucket holds, for structured output: the
 * inverse of the bucketing in llquant.h (quantize, lquantize, llquantize).
 * Unbounded ends (lquantize's "< base", llquantize's overflow buckets,
 * quantize's most negative bucket) reach INT64_MIN or INT64_MAX.
 */
#include "consumer/agg_impl.h"

#include "base/aggdesc.h"
#include "base/quant.h"

static void quantize_bounds(uint32_t b, int64_t *min, int64_t *max)
{
	if (b == DT_QUANTIZE_ZERO) {
		*min = *max = 0;
	} else if (b > DT_QUANTIZE_ZERO) {
		unsigned k = b - DT_QUANTIZE_ZERO;	/* [2^(k-1), 2^k - 1] */
		*min = (int64_t)(1ULL << (k - 1));
		*max = (int64_t)((k >= 63 ? (1ULL << 63) : (1ULL << k)) - 1);
	} else {
		unsigned k = DT_QUANTIZE_ZERO - b;	/* [-(2^k - 1), -2^(k-1)] */
		*min = k >= 63 ? INT64_MIN : -(int64_t)((1ULL << k) - 1);
		*max = -(int64_t)(1ULL << (k - 1));
	}
}

static void lquantize_bounds(const struct dt_aggdesc *ad, uint32_t b, int64_t *min, int64_t *max)
{
	int64_t base = ad->lq_base, step = ad->lq_step;

	if (b == 0) {
		*min = INT64_MIN;
		*max = base - 1;
	} else if (b > ad->lq_levels) {
		*min = base + (int64_t)ad->lq_levels * step;
		*max = INT64_MAX;
	} else {
		*min = base + (int64_t)(b - 1) * step;
		*max = *min + step - 1;
	}
}

static unsigned long long upow(unsigned long long f, unsigned n)
{
	unsigned long long p = 1;

	for (unsigned i = 0; i < n; i++)
		p *= f;
	return p;
}

#define POS_MAX ((unsigned long long)INT64_MAX)	/* largest magnitude of a positive value */
#define NEG_MAX (POS_MAX + 1)			/* of a negative one (INT64_MIN) */

/* Values [lo, hi] of magnitude on the positive side; false if none fits in 64 bits. */
static bool pos_range(unsigned long long lo, unsigned long long hi, int64_t *min, int64_t *max)
{
	if (lo > POS_MAX)
		return false;
	*min = (int64_t)lo;
	*max = (int64_t)(hi > POS_MAX ? POS_MAX : hi);
	return true;
}

/* Values of magnitude [lo, hi] on the negative side: [-hi, -lo]. */
static bool neg_range(unsigned long long lo, unsigned long long hi, int64_t *min, int64_t *max)
{
	if (lo > NEG_MAX)
		return false;
	*max = lo == NEG_MAX ? INT64_MIN : -(int64_t)lo;
	*min = hi >= NEG_MAX ? INT64_MIN : -(int64_t)hi;
	return true;
}

/* The smallest t >= 0 with t * steps / factor^(m+1) >= k (integer division). */
static unsigned long long llq_first(unsigned long long k, unsigned long long fm1, unsigned steps)
{
	/* t * steps >= k * fm1  <=>  t >= ceil(k * fm1 / steps) */
	if (fm1 % steps == 0)
		return k * (fm1 / steps);
	return (k * fm1 + steps - 1) / steps;
}

/* Positive side: offset off (1-based from the middle bucket) of an llquantize. */
static bool llquantize_pos(const struct dt_aggdesc *ad, unsigned off, unsigned long long *lo,
			   unsigned long long *hi)
{
	unsigned factor = ad->llq_factor, steps = ad->llq_steps;
	unsigned sf = steps / factor, per_mag = steps - sf;
	unsigned idx = off - 1, m = ad->llq_lmag + idx / per_mag;
	unsigned long long ind = idx % per_mag + sf;
	unsigned long long fm = upow(factor, m), fm1 = fm * factor;
	unsigned long long a, z;

	if (m == 0) {
		/* t * steps / factor == ind */
		a = llq_first(ind, fm1, steps);
		z = llq_first(ind + 1, fm1, steps);
	} else {
		/* t / (factor^(m+1) / steps) == ind */
		unsigned long long w = fm1 / steps;
		a = ind * w;
		z = (ind + 1) * w;
	}
	if (a < fm)
		a = fm;
	if (z > fm1)
		z = fm1;
	if (z <= a)
		return false;		/* no integer lands here: a ghost bucket */
	*lo = a;
	*hi = z - 1;
	return true;
}

static bool llquantize_bounds(const struct dt_aggdesc *ad, uint32_t b, int64_t *min, int64_t *max)
{
	unsigned under = dt_llquantize_underflow(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						 ad->llq_steps);
	unsigned long long top = upow(ad->llq_factor, ad->llq_hmag + 1u);
	unsigned long long low = upow(ad->llq_factor, ad->llq_lmag);
	unsigned long long lo, hi;

	/* The overflow buckets: magnitudes from factor^(hmag+1) on. */
	if (b == 0)
		return neg_range(top, NEG_MAX, min, max);
	if (b == 2 * under)
		return pos_range(top, POS_MAX, min, max);
	if (b == under) {
		/* |v| < factor^lmag */
		*min = -(int64_t)(low - 1);
		*max = (int64_t)(low - 1);
		return true;
	}
	if (!llquantize_pos(ad, b > under ? b - under : under - b, &lo, &hi))
		return false;
	return b > under ? pos_range(lo, hi, min, max) : neg_range(lo, hi, min, max);
}

uint32_t dt_agg_nbuckets(const struct dt_aggdesc *ad)
{
	switch (ad->func) {
	case AGG_QUANTIZE:
		return DT_QUANTIZE_NBUCKETS;
	case AGG_LQUANTIZE:
		return ad->lq_levels + 2;
	case AGG_LLQUANTIZE:
		return dt_llquantize_nbuckets_of(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						 ad->llq_steps);
	default:
		return 0;
	}
}

bool dt_agg_bucket_bounds(const struct dt_aggdesc *ad, uint32_t b, int64_t *min, int64_t *max)
{
	if (b >= dt_agg_nbuckets(ad))
		return false;
	switch (ad->func) {
	case AGG_QUANTIZE:
		quantize_bounds(b, min, max);
		return true;
	case AGG_LQUANTIZE:
		lquantize_bounds(ad, b, min, max);
		return true;
	case AGG_LLQUANTIZE:
		return llquantize_bounds(ad, b, min, max);
	default:
		return false;
	}
}
