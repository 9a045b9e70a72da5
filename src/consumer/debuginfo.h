/*
 * Separate debug files: a stripped object (Debian's libc.so.6) keeps only
 * .dynsym; its local functions (__libc_start_call_main) are in the debug
 * file its build id names, <root>/.build-id/xx/yyyy.debug (libc6-dbg).
 */
#ifndef DT_DEBUGINFO_H
#define DT_DEBUGINFO_H

#include <stdbool.h>
#include <stddef.h>

/* The readable debug file of the ELF object at path under root ("/usr/lib/debug"). */
bool dt_debuginfo_path(const char *path, const char *root, char *out, size_t outlen);

#endif
