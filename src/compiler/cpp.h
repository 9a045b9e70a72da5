/* Running the system C preprocessor over D source (-C). */
#ifndef DT_CPP_H
#define DT_CPP_H

#include <stddef.h>

struct dt_compiler;

/*
 * Preprocess `src` with cpp (the cpppath option, default "cpp") and the
 * -D/-U/-I arguments given.  `filename` names the source in line markers.
 * On success *outp (malloc'ed) holds the output.
 */
int dt_cpp_run(struct dt_compiler *cc, const char *src, size_t len, const char *filename,
	       char **outp, size_t *outlenp);

#endif
