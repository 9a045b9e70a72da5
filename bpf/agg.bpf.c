/* Aggregation helpers: quantize buckets and stddev's 128-bit sum of squares. */
#include "runtime.h"

/* The same bucket math as the consumer's (src/base/quant.h). */
#include "base/quant.h"

DT_RT u64 dt_rt_quantize_bucket(u64 v)
{
	return dt_quantize_bucket((long long)v);
}

/* params: factor | lmag << 16 | hmag << 32 | steps << 48 */
DT_RT u64 dt_rt_llquantize_bucket(u64 v, u64 params)
{
	return dt_llquantize_bucket_of((long long)v, params & 0xffff, (params >> 16) & 0xffff,
				       (params >> 32) & 0xffff, (params >> 48) & 0xffff);
}

/* count++, sum += v, sumsq (128-bit, words 2 and 3) += v * v */
DT_RT u64 dt_rt_stddev_add(u64 p, u64 v)
{
	u64 *w = (u64 *)p;
	u64 a = (__s64)v < 0 ? (u64)0 - v : v;
	u64 lo32 = a & 0xffffffffULL, hi32 = a >> 32;
	u64 ll = lo32 * lo32, lh = lo32 * hi32, hh = hi32 * hi32;
	u64 lo = ll + (lh << 33);
	u64 hi = hh + (lh >> 31) + (lo < ll);

	w[0] += 1;
	w[1] += v;
	u64 slo = w[2] + lo;
	w[3] += hi + (slo < lo);
	w[2] = slo;
	return 0;
}
