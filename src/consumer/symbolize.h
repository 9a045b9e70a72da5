/*
 * The consumer's symbolizer: kernel addresses through /proc/kallsyms (read
 * once, on first use), user addresses through the process's mappings and
 * the ELF files it maps (usyms.h), with DTrace's texts:
 *
 *   module`function+0xoff   an address inside a function
 *   module`function         its first instruction
 *   module`0xaddr           in a module, in no known function
 *   0xaddr                  anywhere else, or a process that exited
 *                           before its mappings were read
 *
 * It lives in the handle (cs->symbolizer) and is freed with it.
 */
#ifndef DT_SYMBOLIZE_H
#define DT_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct dt_consumer;
struct dt_pf_syms;

/* The handle's lookup callbacks for the printf engine and aggregations; NULL if out of memory. */
const struct dt_pf_syms *dt_syms(struct dt_consumer *cs);

void dt_syms_free(struct dt_consumer *cs);

/*
 * Keep what the -c and -p processes map known while they live (read again
 * at most every `min_ms` milliseconds), so that their stacks resolve
 * after they exit, as DTrace keeps its grabbed processes.
 */
void dt_syms_track_targets(struct dt_consumer *cs, unsigned min_ms);
#define DT_SYMS_TRACK_MS 250

/*
 * Process pid's user addresses were just recorded (DT_REC_PROC_SEEN): read
 * its mappings now, while it likely lives, so that they resolve later.
 */
void dt_syms_note_proc(struct dt_consumer *cs, pid_t pid);

/*
 * The first address of the function (mod false) or module (mod true)
 * holding a kernel address, or of a process's address; false if unknown.
 */
bool dt_syms_kstart(struct dt_consumer *cs, uint64_t addr, bool mod, uint64_t *start);
bool dt_syms_ustart(struct dt_consumer *cs, pid_t pid, uint64_t addr, bool mod, uint64_t *start);

/*
 * A kernel stack of n slots as captured (cg_stack.h): drop a leading
 * __traceiter_<tp>() frame, else the spare last one; the last slot ends
 * up 0.
 */
void dt_syms_kstack_trim(struct dt_consumer *cs, uint64_t *pcs, size_t n);

#endif
