/*
 * Opening the files dtrace writes by name (-o, -h, -G, and freopen()).
 * dtrace runs as root: a symbolic link as the last component of the name
 * is followed only when nobody but the user and root could have put it
 * there (see dt_open_output), so that a link planted in /tmp cannot send
 * trace data into a file the user did not name.
 */
#ifndef DT_OFILE_H
#define DT_OFILE_H

#include <stdbool.h>

struct dtrace_hdl;

/*
 * Open `path` for writing, created (mode 0666 & ~umask) if missing,
 * appended to (append: as DTrace's -o and freopen()) or truncated.  When
 * the last component is a symbolic link it is followed only if the link
 * and its directory belong to the real user or root and the directory is
 * not writable by others, or is sticky (/tmp: others cannot replace the
 * link); otherwise -ELOOP with a message that says what to do.  Returns a
 * file descriptor (close-on-exec) or a negative errno with a message.
 */
int dt_open_output(struct dtrace_hdl *dtp, const char *path, bool append);

#endif
