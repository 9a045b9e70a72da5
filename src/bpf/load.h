/*
 * Loading a linked BPF object with libbpf: open, let the caller size the
 * maps, load (verifier failures named by D source line), find .bss
 * variables in the live object.
 */
#ifndef DT_BPF_LOAD_H
#define DT_BPF_LOAD_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

struct bpf_object;
struct bpf_program;

/*
 * Open a linked object (the bytes bo_link produced) as the libbpf object
 * "dtrace", not yet loaded; the bytes may be freed afterwards.  Before
 * bo_load() the caller may adjust maps, e.g.
 * bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "rb"), size).
 */
int bo_open(const void *elf, size_t size, struct bpf_object **objp,
	    char *err, size_t errlen);

/*
 * Create the maps and load every program.  When the verifier rejects a
 * program, *failedp (if not NULL) is set to it and the message reads
 * "BPF verifier rejected the clause at x.d:12: <reason>": the position is
 * the last line info of file `source_name` (NULL: of any file) that the
 * verifier printed before failing, the reason the last line of its log.
 * Each program's log buffer is log_size bytes; *log_cut says whether the
 * refused program's log did not fit (open and load again with a larger one).
 * Negative errno and a message on failure.
 */
int bo_load(struct bpf_object *obj, const char *source_name, size_t log_size,
	    struct bpf_program **failedp, bool *log_cut, char *err, size_t errlen);

/* bo_load(), printing each program's verifier log to logfp ("BPF: " lines) if not NULL. */
int bo_load_logged(struct bpf_object *obj, const char *source_name, size_t log_size,
		   FILE *logfp, struct bpf_program **failedp, bool *log_cut, char *err,
		   size_t errlen);

/*
 * After bo_load() failed with no program refused: find a map the kernel
 * will not create, by creating each one alone (and closing it at once).
 * Its name goes to name[namelen]; returns the kernel's negative errno, or
 * 0 if every map can be created alone (then only all of them together were
 * too much).
 */
int bo_map_refused(struct bpf_object *obj, char *name, size_t namelen);

/*
 * The .bss variable `name` (its size in *sizep if not NULL): after
 * bo_load() the live memory the programs use (libbpf maps global data),
 * found by the variable's BTF so linking cannot move it unnoticed.
 * NULL if there is no such variable.
 */
void *bo_bss_var(struct bpf_object *obj, const char *name, size_t *sizep);

/* Unload and free everything (programs, maps); NULL is fine. */
void bo_close(struct bpf_object *obj);

#endif
