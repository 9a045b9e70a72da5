/*
 * Bucket math of quantize(), lquantize() and llquantize(), as DTrace lays
 * the buckets out (bpf/agg_qbin.c, bpf/agg_lqbin.c and dt_cg.c's
 * dt_cg_agg_llquantize_bin in dtrace-utils).
 *
 * Everything here is static inline integer code with no includes and loops
 * bounded by 64, so that the same functions compile in user space and with
 * clang -target bpf (the verifier accepts the bounded loops).  Unsigned
 * division by a value the caller guarantees non-zero is the only division.
 *
 * llquantize(v, factor, lmag, hmag, steps) buckets, in numerical order:
 *
 *   0                     <= -factor^(hmag+1)          (negative overflow)
 *   1 .. under-1          the negative log-linear buckets, mirror of the
 *                         positive ones (under - k holds -(bucket under + k))
 *   under                 |v| < factor^lmag            (the "underflow" bucket,
 *                         in the middle; under = 1 + (hmag-lmag+1)*per_mag)
 *   under+1 .. 2*under-1  per_mag buckets for each magnitude lmag..hmag,
 *                         per_mag = steps - steps/factor, in increasing order
 *   2*under               >= factor^(hmag+1)           (positive overflow)
 *
 * so nbuckets = 2 * (hmag - lmag + 1) * (steps - steps/factor) + 3.  Within
 * magnitude m (values [factor^m, factor^(m+1))), value t goes to index
 * t / (factor^(m+1) / steps) - steps/factor (t * steps / factor for m = 0).
 * When lmag == 0 and steps > factor, the values 1 .. factor-1 only reach
 * every (steps/factor)-th bucket of magnitude 0: the others stay empty
 * ("ghost" buckets, which the printer skips).
 */
#ifndef DT_LLQUANT_H
#define DT_LLQUANT_H

#define DT_QUANTIZE_NBUCKETS 127	/* = DT_QUANT_NBUCKETS of aggdesc.h */
#define DT_QUANTIZE_ZERO 63

/* quantize(): 63 for 0, 63 + k for [2^(k-1), 2^k - 1], 63 - k for the negatives. */
static inline unsigned int dt_quantize_bucket(long long v)
{
	unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	unsigned int k = 0;

	if (m == 0)
		return DT_QUANTIZE_ZERO;
	/* k = floor(log2(m)) + 1; INT64_MIN (m = 2^63) gives 64, bucket 0 */
	if (m >> 32) { k += 32; m >>= 32; }
	if (m >> 16) { k += 16; m >>= 16; }
	if (m >> 8) { k += 8; m >>= 8; }
	if (m >> 4) { k += 4; m >>= 4; }
	if (m >> 2) { k += 2; m >>= 2; }
	if (m >> 1) { k += 1; }
	k += 1;
	if (v < 0)
		return k > DT_QUANTIZE_ZERO ? 0 : DT_QUANTIZE_ZERO - k;
	return DT_QUANTIZE_ZERO + k;
}

/* The lowest value of quantize() bucket b (what DTrace prints as its label). */
static inline long long dt_quantize_bucket_value(unsigned int b)
{
	if (b < DT_QUANTIZE_ZERO)
		return -(long long)(1ULL << (DT_QUANTIZE_ZERO - 1 - b));
	if (b == DT_QUANTIZE_ZERO)
		return 0;
	return (long long)(1ULL << (b - DT_QUANTIZE_ZERO - 1));
}

/*
 * lquantize(v, base, limit, step) with levels = (limit - base) / step:
 * 0 below base, 1 + (v - base) / step, levels + 1 from base + levels * step.
 */
static inline unsigned int dt_lquantize_bucket(long long v, long long base,
					       unsigned int levels, unsigned int step)
{
	unsigned long long level;

	if (step == 0 || v < base)
		return 0;
	level = ((unsigned long long)v - (unsigned long long)base) / step;
	if (level > levels)
		level = levels;
	return (unsigned int)level + 1;
}

/* Buckets per order of magnitude: the first steps/factor overlap the one below. */
static inline unsigned int dt_llquantize_per_mag(unsigned int factor, unsigned int steps)
{
	return steps - steps / factor;
}

static inline unsigned int dt_llquantize_nbuckets_of(unsigned int factor, unsigned int lmag,
						     unsigned int hmag, unsigned int steps)
{
	return 2 * (hmag - lmag + 1) * dt_llquantize_per_mag(factor, steps) + 3;
}

/* The middle bucket, |v| < factor^lmag. */
static inline unsigned int dt_llquantize_underflow(unsigned int factor, unsigned int lmag,
						   unsigned int hmag, unsigned int steps)
{
	return 1 + (hmag - lmag + 1) * dt_llquantize_per_mag(factor, steps);
}

/*
 * The bucket of v.  The parameters are those the compiler accepted:
 * 2 <= factor, lmag <= hmag, factor^(hmag+1) fits in 64 bits (so hmag < 64
 * and no product below overflows), and steps divides factor or is a
 * multiple of it that divides factor^(lmag+1) (factor^2 when lmag = 0).
 */
static inline unsigned int dt_llquantize_bucket_of(long long v, unsigned int factor,
						   unsigned int lmag, unsigned int hmag,
						   unsigned int steps)
{
	unsigned int sf = steps / factor, per_mag = steps - sf;
	unsigned int under = 1 + (hmag - lmag + 1) * per_mag;
	unsigned long long t = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	unsigned long long max = 1, ind = 0;
	unsigned int mag, off, i;

	for (i = 0; i < 64 && i < lmag; i++)
		max *= factor;
	if (t < max)
		return under;

	/* Find the magnitude: factor^mag <= t < factor^(mag+1) = max. */
	mag = lmag;
	for (i = 0; i < 64; i++) {
		max *= factor;
		if (t < max)
			break;
		if (++mag > hmag)
			break;
	}
	if (mag <= hmag) {
		/* t * steps / max, without overflow where max is large */
		if (mag != 0)
			ind = t / (max / steps);
		else
			ind = t * steps / max;
		ind -= sf;
	}
	/* mag = hmag + 1 with ind = 0 is the overflow bucket */
	off = (mag - lmag) * per_mag + (unsigned int)ind + 1;
	return v < 0 ? under - off : under + off;
}

#endif
