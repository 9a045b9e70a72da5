#!/bin/bash
# vtimestamp does not advance within a probe firing (DTrace leaves out the
# time spent in predicates and actions): two reads around work in one
# clause, and a read in the next clause of the same firing, all agree;
# between the firings of a CPU-bound function's entry and return it does
# advance.  Only counts are printed.
"$1" -qn '
pid$target:a.out:spin:entry {
	self->e = vtimestamp;
}
pid$target:a.out:spin:return /self->e/ {
	this->a = vtimestamp;
	this->s = strjoin(strjoin(probefunc, "-"), strjoin(execname, "-"));
	this->n = strlen(this->s) + strlen(strjoin(this->s, this->s));
	this->b = vtimestamp;
	self->v = this->b;
	@calls = count();
	@same = sum(this->a == this->b && this->n > 0);
	@adv = sum(this->a > self->e);
}
pid$target:a.out:spin:return /self->e/ {
	@next = sum(vtimestamp == self->v);
	self->e = 0;
}
END {
	printa("calls %@d, same in a clause %@d, same in the next clause %@d, advanced since entry %@d\n",
	    @calls, @same, @next, @adv);
}' -c "$DT_WORKLOADS/vtime_work"
