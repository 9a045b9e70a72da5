/* Storage of D variables that the program builder must create maps for. */
#ifndef DT_VARS_H
#define DT_VARS_H

#include <stdint.h>

struct dt_compiler;
struct dt_ident;
struct dt_type;

/* Bytes a variable of type t occupies (strings: strsize; scalars: 8). */
uint32_t dt_var_size(struct dt_compiler *cc, struct dt_type *t);
/* Key bytes of a thread-local (8) or associative array (its tuple). */
uint32_t dt_var_key_size(struct dt_compiler *cc, struct dt_ident *id);
/* Map name of a thread-local or associative array. */
const char *dt_var_map_name(struct dt_compiler *cc, struct dt_ident *id);
/* How many dynamic variables dynvarsize holds, all of them together. */
int32_t dt_var_room(struct dt_compiler *cc);
/* Remember a dynamic variable so that its map is created. */
int dt_vars_register(struct dt_compiler *cc, struct dt_ident *id);

#endif
