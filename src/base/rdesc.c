/* Clause numbers of errors (rdesc.h). */
#include "base/rdesc.h"

uint32_t dt_cdesc_number(const struct dt_cdesc *const *cdescs, size_t n, uint32_t clause,
			 const struct dt_probe *prp)
{
	uint32_t number = clause;

	for (size_t i = 0; i < n; i++) {
		const struct dt_cdesc *cd = cdescs[i];
		if (cd->clause != clause)
			continue;
		for (size_t j = 0; j < cd->nprobes; j++)
			if (cd->probes[j] == prp) {
				number += (uint32_t)cd->pdesc[j];
				break;
			}
	}
	return number;
}
