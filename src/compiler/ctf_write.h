/* -x ctypes / -x dtypes: D's type containers written as CTF. */
#ifndef DT_CTF_WRITE_H
#define DT_CTF_WRITE_H

#include <stdbool.h>

struct dt_compiler;

/*
 * Replace fd's contents with the C container (intrinsic types) or, for
 * dtypes, the D container (typedefs, string, programs' types) as a CTF
 * dictionary.  0 or a negative errno (also reported with -x debug).
 */
int dt_ctf_write(struct dt_compiler *cc, int fd, bool dtypes);

#endif
