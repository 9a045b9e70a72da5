/*
 * Constants of DTrace's process model (proc(4)) and of the proc, sched
 * and io providers' arguments; the types and translators that need kernel
 * types are in the library's kernel part (dlib/kernel/).
 */

/* psinfo_t's pr_dmodel */
inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

/* lwpsinfo_t's pr_flag */
inline int PR_STOPPED = 0x00000001;
inline int PR_ISTOP = 0x00000002;
inline int PR_DSTOP = 0x00000004;
inline int PR_IDLE = 0x10000000;

/* lwpsinfo_t's pr_state */
inline char SSLEEP = 1;
inline char SRUN = 2;
inline char SZOMB = 3;
inline char SSTOP = 4;
inline char SIDL = 5;
inline char SONPROC = 6;
inline char SWAIT = 7;

/* proc:::exit's args[0] */
inline int CLD_EXITED = 1;
inline int CLD_KILLED = 2;
inline int CLD_DUMPED = 3;
inline int CLD_TRAPPED = 4;
inline int CLD_STOPPED = 5;
inline int CLD_CONTINUED = 6;

/* bufinfo_t's b_flags */
inline int B_BUSY = 0x000001;
inline int B_DONE = 0x000002;
inline int B_ERROR = 0x000004;
inline int B_PAGEIO = 0x000010;
inline int B_PHYS = 0x000020;
inline int B_READ = 0x000040;
inline int B_WRITE = 0x000100;
inline int B_ASYNC = 0x000400;

/* The CPU a probe fires on: curcpu. */
typedef id_t chipid_t;
typedef id_t lgrp_id_t;

typedef struct cpuinfo {
	processorid_t cpu_id;		/* CPU number */
	psetid_t cpu_pset;		/* processor set (Linux: 0) */
	chipid_t cpu_chip;		/* physical package */
	lgrp_id_t cpu_lgrp;		/* NUMA node */
} cpuinfo_t;

inline psetid_t pset = curcpu->cpu_pset;
inline chipid_t chip = curcpu->cpu_chip;
inline lgrp_id_t lgrp = curcpu->cpu_lgrp;
