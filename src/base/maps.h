/*
 * The maps and the .bss of every object the compiler builds, as the code
 * generator lays them out and the loader and the consumer read them.
 * Aggregations have one map each (base/aggdesc.h); speculations live in
 * .bss (base/spec_abi.h).
 */
#ifndef DT_MAPS_H
#define DT_MAPS_H

/* Fixed .bss layout (globals follow). */
#define BSS_STATE	0	/* u32 dt_state */
#define BSS_FILLED	4	/* u32: bytes of records so far (bufpolicy=fill) */
#define BSS_WALLOFF	8	/* s64: realtime - monotonic, set by the consumer */
#define BSS_WAKEMARK	16	/* u64: bytes waiting in the ring that make a record wake the consumer */
/*
 * Drop counts, BSS_DROPS_STRIDE bytes a CPU (by CPU number, masked to a
 * power of two of entries at least the possible CPUs), at the offsets of
 * CPU_*_DROPS below: ring, dynamic, aggregation, speculation.  In .bss, a
 * drop site counts with the CPU's number and one atomic add, no map lookup.
 */
#define BSS_DROPS	24
#define BSS_DROPS_STRIDE 32
/* (Globals follow the drop counts: dt_cg_bss_base().) */

/* Per-CPU counters (map dt_cpuinfo, one entry; the drops but nested ones are counted in .bss). */
#define CPU_RING_DROPS	0
#define CPU_DYN_DROPS	8
#define CPU_AGG_DROPS	16
#define CPU_SPEC_DROPS	24
#define CPU_NEST	32	/* bit k: scratch level k in use (cg_prog.c) */
#define CPU_PCTX	40	/* programs running (exclusive objects: cg_prog.c) */
#define CPU_NESTED_DROPS 48	/* firings inside another program (or with no scratch level), not run */
#define CPU_INFO_SIZE	56

/* Names of the object's maps. */
#define MAP_RING	"dt_ring"
#define MAP_CPUINFO	"dt_cpuinfo"
#define MAP_SCRATCH	"dt_scratch"
#define MAP_PROBES	"dt_probes"
#define MAP_CURCPU	"dt_curcpu"	/* per-CPU cpuinfo_t for curcpu (lib/curcpu.c) */
#define MAP_USEEN	"dt_useen"	/* processes whose user addresses were recorded */
#define USEEN_MAX	4096
#define CURCPU_SIZE	16

#endif
