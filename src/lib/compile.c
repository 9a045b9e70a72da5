/* Compiling and enabling programs through the API (the compiler does the work). */
#include "compiler/program.h"
#include "lib/dt_impl.h"

dtrace_prog_t *dtrace_compile(dtrace_hdl_t *dtp, const char *text, const char *name,
			      enum dtrace_pspec kind, unsigned flags, int argc, char *const argv[])
{
	return dt_compile(dtp->cc, text, name, kind, flags, argc, argv);
}

int dtrace_prog_nprobes(const dtrace_prog_t *pgp)
{
	return pgp->nprobes;
}

int dtrace_prog_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp)
{
	return dt_prog_exec(dtp->cc, pgp);
}

int dtrace_prog_probe_iter(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_probe_f *func,
			   void *arg)
{
	int n = 0;

	for (size_t i = 0; i < pgp->stmts.n; i++) {
		struct dt_stmt *st = pgp->stmts.v[i];
		for (size_t j = 0; j < st->probes.n; j++) {
			struct dt_probe *prp = st->probes.v[j];
			dtrace_probeinfo_t pi = { prp->id, prp->desc[0], prp->desc[1], prp->desc[2],
						  prp->desc[3] };
			n++;
			if (func != NULL && func(dtp, &pi, arg) != 0)
				return n;
		}
	}
	return n;
}
