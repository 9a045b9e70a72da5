/* Every provider; the list the handle gives the probe registry (base/probe.h). */
#ifndef DT_PROVIDERS_H
#define DT_PROVIDERS_H

#include <stddef.h>

struct dt_provider;

extern const struct dt_provider dt_prov_dtrace;
extern const struct dt_provider dt_prov_syscall;
extern const struct dt_provider dt_prov_profile;
extern const struct dt_provider dt_prov_sdt;
extern const struct dt_provider dt_prov_pid;
extern const struct dt_provider dt_prov_usdt;
extern const struct dt_provider dt_prov_proc;
extern const struct dt_provider dt_prov_sched;
extern const struct dt_provider dt_prov_io;
extern const struct dt_provider dt_prov_ip;
extern const struct dt_provider dt_prov_tcp;
extern const struct dt_provider dt_prov_udp;
extern const struct dt_provider dt_prov_lockstat;
extern const struct dt_provider dt_prov_rawtp;
extern const struct dt_provider dt_prov_cpc;
extern const struct dt_provider dt_prov_fbt;
extern const struct dt_provider dt_prov_rawfbt;

/* In listing order. */
extern const struct dt_provider *const dt_providers[];
extern const size_t dt_nproviders;

#endif
