/*
 * The D library (cmake/DLibrary.cmake): declarations such as NULL and the
 * errno and signal names that DTrace gives every program.  It is compiled
 * into the handle the first time a program names something it does not
 * define, so that programs that need none of it do not pay for it.
 */
#include "compiler/dlib.h"

#include <errno.h>
#include <setjmp.h>
#include <string.h>

#include "compiler/parser.h"
#include "compiler/pcb.h"
#include "compiler/sema.h"
#include "lib/dt_impl.h"

extern const char dt_dlib_text[];

int dt_dlib_load(struct dtrace_hdl *dtp)
{
	struct dt_pcb pcb;

	if (dtp->dlib_state != DLIB_UNLOADED)
		return dtp->dlib_state == DLIB_LOADED ? 0 : -EINVAL;
	dtp->dlib_state = DLIB_FAILED;
	/* The library's errors must not replace the user's program's. */
	char errmsg[sizeof(dtp->errmsg)], errtag[sizeof(dtp->errtag)];
	int err = dtp->err;
	memcpy(errmsg, dtp->errmsg, sizeof(errmsg));
	memcpy(errtag, dtp->errtag, sizeof(errtag));

	memset(&pcb, 0, sizeof(pcb));
	pcb.hdl = dtp;
	pcb.arena = &dtp->arena;
	pcb.filename = "<D library>";
	pcb.show_lines = true;
	pcb.src = dt_dlib_text;
	pcb.srclen = strlen(dt_dlib_text);
	pcb.is_dlib = true;
	if (setjmp(pcb.jb) == 0) {
		dt_parse_program(&pcb);
		dt_sema_program(&pcb);
		dtp->dlib_state = DLIB_LOADED;
	}
	dtp->err = err;
	memcpy(dtp->errmsg, errmsg, sizeof(errmsg));
	memcpy(dtp->errtag, errtag, sizeof(errtag));
	return dtp->dlib_state == DLIB_LOADED ? 0 : -EINVAL;
}
