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
};

#endif
