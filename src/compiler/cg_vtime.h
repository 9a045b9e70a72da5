/*
 * vtimestamp (cg_vtime.c): the value, and the program on the
 * sched_switch raw tracepoint that keeps the threads' time on CPU.
 */
#ifndef DT_CG_VTIME_H
#define DT_CG_VTIME_H

struct dt_cg;
struct dt_pcb;

/* Threads whose vtimestamp was read: tid -> time on CPU (cg_vtime.c). */
#define MAP_VTIME	"dt_vtime"
#define VTIME_VALUE	24
#define VTIME_MAX	65536
/* Per CPU: the thread that last went on it, when, and its kernel total then. */
#define MAP_VTIME_CPU	"dt_vtime_cpu"

/* vtimestamp into a new register. */
int cg_vtime(struct dt_cg *cg);

/* Build dt_vtime_switch if some clause reads vtimestamp (go.c attaches it). */
void dt_cg_vtime_program(struct dt_pcb *pcb);
#define DT_VTIME_PROG "dt_vtime_switch"
#define DT_VTIME_TP "sched_switch"

#endif
