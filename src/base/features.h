/*
 * What the running kernel offers the code generator, probed once when a
 * handle opens (bpf/features.c) so that compiling never loads a program.
 * Where the probe cannot run (no privileges: dtrace -e as a user), a
 * feature counts as present and loading the program decides.
 */
#ifndef DT_FEATURES_H
#define DT_FEATURES_H

#include <stdbool.h>

struct dt_features {
	bool bpf_loop;		/* tracing programs may call bpf_loop() (Linux 5.17): chill() */
	/* ... and bpf_probe_write_user(), which kernel lockdown refuses: copyout() */
	bool probe_write_user;
	/*
	 * bpf_get_current_task_btf() and plain loads through the pointer it
	 * returns (Linux 5.11): a thread-local key's start time without a
	 * bpf_probe_read_kernel() call.
	 */
	bool task_btf_load;
};

#endif
