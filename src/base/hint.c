/*
 * After a compile error: what the system lacks when that explains it (a
 * provider that cannot enable probes here, no kernel BTF), added to the
 * message (probe.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

static void append(struct dt_registry *reg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(struct dt_registry *reg, const char *fmt, ...)
{
	size_t len = strlen(reg->core->errmsg);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reg->core->errmsg + len, sizeof(reg->core->errmsg) - len, fmt, ap);
	va_end(ap);
}

/* "probe description P:M:F:N does not match any probes": which providers could have. */
static void pdesc_hint(struct dt_registry *reg)
{
	static const char lead[] = "probe description ";
	const char *s = strstr(reg->core->errmsg, lead);
	char prov[64];

	if (s == NULL || strstr(s, "does not match any probes") == NULL)
		return;
	s += sizeof(lead) - 1;
	size_t n = strcspn(s, ":");
	if (s[n] != ':' || n >= sizeof(prov))
		return;
	memcpy(prov, s, n);
	prov[n] = '\0';
	for (size_t i = 0; i < reg->nproviders; i++) {
		const struct dt_provider *p = reg->providers[i];
		const char *why = p->unavailable ? p->unavailable(reg) : NULL;
		if (why != NULL && (prov[0] == '\0' || dt_gmatch(p->name, prov))) {
			append(reg, " (the %s provider is unavailable: %s)", p->name, why);
			return;
		}
	}
}

void dt_compile_hint(struct dt_registry *reg)
{
	pdesc_hint(reg);
	/* Kernel types were needed and there is no BTF to find them in. */
	if (reg->core->types.vmlinux_tried && reg->core->types.vmlinux == NULL)
		append(reg, " (kernel BTF %s %s: dtrace needs a kernel built with "
		       "CONFIG_DEBUG_INFO_BTF=y)", VMLINUX_BTF,
		       access(VMLINUX_BTF, F_OK) < 0 ? "is missing" : "cannot be read");
}
