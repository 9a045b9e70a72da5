/*
 * The cpc provider's events and probe names.  A probe is named
 * <event>-<mode>-<count> (cpc:::cpu_clock-user-100000): the event, the
 * privilege mode whose events count (user, kernel or all), and how many
 * events make the probe fire on a CPU.  The events are the kernel's
 * generic perf events under the names DTrace for Linux takes from
 * libpfm's perf PMU ("PERF_COUNT_SW_CPU_CLOCK", "CPU-CLOCK" ...), in lower
 * case with '-' made '_' ("perf_count_sw_cpu_clock", "cpu_clock").
 */
#ifndef DT_CPC_EVENTS_H
#define DT_CPC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event_attr;

struct cpc_event {
	const char *name;	/* libpfm's name */
	uint32_t type;		/* PERF_TYPE_HARDWARE, _SOFTWARE, _HW_CACHE */
	uint64_t config;
};

enum cpc_mode { CPC_ALL, CPC_USER, CPC_KERNEL };

struct cpc_spec {
	const struct cpc_event *ev;
	enum cpc_mode mode;
	uint64_t count;
};

/* The events, in libpfm's order. */
size_t dt_cpc_nevents(void);
const struct cpc_event *dt_cpc_event_at(size_t i);

/* An event's D name ("cpu_clock") into buf. */
const char *dt_cpc_dname(const struct cpc_event *ev, char *buf, size_t len);

/* The event whose D name is `dname`, or NULL. */
const struct cpc_event *dt_cpc_event(const char *dname);

/* Decode a probe name; false if it is not one (unknown event or mode, bad count). */
bool dt_cpc_parse(const char *name, struct cpc_spec *spec);

/* The perf event a probe opens on each CPU. */
void dt_cpc_attr(const struct cpc_spec *spec, struct perf_event_attr *attr);

/* "hardware", "software" or "hardware cache". */
const char *dt_cpc_kind(const struct cpc_event *ev);

#endif
