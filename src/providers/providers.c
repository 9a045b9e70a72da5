/* The providers, in listing order (providers.h). */
#include "providers/providers.h"

#include "base/provider.h"
#include "base/util.h"

/*
 * Probe ids follow this order.  pid and usdt list nothing until a
 * description names a process, so they come after the providers that
 * list everything; fbt, the expensive one to list, is last so that no
 * other provider's ids depend on it (then rawfbt, which lists from
 * kallsyms what fbt lists from BTF, and more).
 */
const struct dt_provider *const dt_providers[] = {
	&dt_prov_dtrace, &dt_prov_syscall, &dt_prov_profile, &dt_prov_sdt,
	&dt_prov_proc, &dt_prov_sched, &dt_prov_io, &dt_prov_ip, &dt_prov_tcp, &dt_prov_udp,
	&dt_prov_lockstat, &dt_prov_rawtp, &dt_prov_cpc, &dt_prov_pid, &dt_prov_usdt, &dt_prov_fbt,
	&dt_prov_rawfbt,
};

const size_t dt_nproviders = ARRAY_SIZE(dt_providers);
