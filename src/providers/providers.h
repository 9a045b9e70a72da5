/* Every provider, for the handle to give the probe registry (base/probe.h). */
#ifndef DT_PROVIDERS_H
#define DT_PROVIDERS_H

#include <stddef.h>

struct dt_provider;

extern const struct dt_provider *const dt_providers[];
extern const size_t dt_nproviders;

#endif
