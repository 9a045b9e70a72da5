/* Probing the kernel's features (base/features.h). */
#ifndef DT_BPF_FEATURES_H
#define DT_BPF_FEATURES_H

#include "base/features.h"

/* Fill `f` from what the running kernel accepts. */
void dt_features_probe(struct dt_features *f);

#endif
