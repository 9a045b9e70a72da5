/*
 * Replacing a file whole, so that a reader (node_exporter's textfile
 * collector, a profiler's upload) never opens half of it: the data go to
 * a new file in the same directory, which is flushed to disk and renamed
 * over the old name.  A symbolic link at the name is replaced, not
 * followed, and the new file is created anew (O_EXCL), so that nothing
 * planted in a shared directory receives the data.
 */
#ifndef DT_FILE_REPLACE_H
#define DT_FILE_REPLACE_H

#include <stddef.h>

/* 0, or -1 with why in err. */
int dt_file_replace(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
