/* Common definitions for the BPF run-time library (compiled by clang). */
#ifndef DT_RUNTIME_H
#define DT_RUNTIME_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "base/abi.h"

/*
 * Run-time functions are called from generated code as BPF-to-BPF calls.
 * Every argument and result is a 64-bit integer (pointers too), so that the
 * generated object can declare them with one BTF prototype; they are hidden
 * so that libbpf marks them static and the verifier checks them in the
 * caller's context.
 */
#define DT_RT __attribute__((visibility("hidden"))) __attribute__((noinline))
typedef __u64 u64;

#endif
