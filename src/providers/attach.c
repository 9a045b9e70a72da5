/* Keeping a group's links, or saying why one could not be made (attach.h). */
#include "providers/attach.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"

int dt_group_link(struct dt_registry *reg, struct dt_group *g, struct bpf_link *l, const char *fmt, ...)
{
	if (l == NULL) {
		int err = errno;
		char what[1024];
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		return dt_set_error(reg->core, -err, "%s: %s", what, strerror(err));
	}
	if (dt_vec_push(&g->links, l) < 0) {
		bpf_link__destroy(l);
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	}
	return 0;
}
