/* D libraries from the -L directories (ulib.c). */
#ifndef DT_ULIB_H
#define DT_ULIB_H

struct dt_compiler;

/*
 * Compile the libraries of the libdir option into the handle, in
 * dependency order, the first time a program is compiled; 0 or a negative
 * errno with the message on the handle (a library's error names it).
 */
int dt_ulib_load(struct dt_compiler *cc);

#endif
