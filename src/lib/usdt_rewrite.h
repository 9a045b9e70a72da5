/* dtrace -G: rewriting the probe calls of DTrace's <sys/sdt.h> in an object. */
#ifndef DT_USDT_REWRITE_H
#define DT_USDT_REWRITE_H

#include "dtrace.h"

/*
 * Turn the __dtrace_<provider>___<probe>() calls of a relocatable object
 * into nops with stapsdt notes (and is-enabled calls into zeros), in place.
 */
int dt_usdt_rewrite_object(dtrace_hdl_t *dtp, const char *file);

#endif
