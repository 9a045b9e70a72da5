/* The D library of declarations every D program may use (dlib.c). */
#ifndef DT_DLIB_H
#define DT_DLIB_H

#include <stdbool.h>

struct dt_compiler;

enum dt_dlib_state { DLIB_UNLOADED, DLIB_LOADED, DLIB_FAILED };

/* Compile the library's base part into the handle once; 0 or -EINVAL. */
int dt_dlib_load(struct dt_compiler *cc);

/* The same for its kernel part (the base part first). */
int dt_dlib_load_kernel(struct dt_compiler *cc);

/* Whether the kernel part defines `name` (a type or an inline). */
bool dt_dlib_kernel_defines(const char *name);

/*
 * A program names `name`, which it does not define: compile the part of
 * the library that may (the base part first).  1 if a part was compiled
 * (look again), 0 if there is none left to try, -EINVAL if it failed.
 */
int dt_dlib_provide(struct dt_compiler *cc, const char *name);

#endif
