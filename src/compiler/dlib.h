/* The D library of declarations every D program may use. */
#ifndef DT_DLIB_H
#define DT_DLIB_H

struct dtrace_hdl;

enum dt_dlib_state { DLIB_UNLOADED, DLIB_LOADED, DLIB_FAILED };

/* Compile the library into the handle once; 0 or -EINVAL. */
int dt_dlib_load(struct dtrace_hdl *dtp);

#endif
