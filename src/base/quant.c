/* llquantize() bucket layout for the compiler and the consumer (aggdesc.h). */
#include "base/aggdesc.h"
#include "base/quant.h"

uint32_t dt_llquantize_bucket(const struct dt_aggdesc *ad, int64_t v)
{
	return dt_llquantize_bucket_of(v, ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
				       ad->llq_steps);
}

uint32_t dt_llquantize_nbuckets(uint16_t factor, uint16_t lmag, uint16_t hmag, uint16_t steps)
{
	return dt_llquantize_nbuckets_of(factor, lmag, hmag, steps);
}
