#!/bin/bash
# sched provider for a workload the test starts (sleep): it goes on and
# off CPU, sleeps, is woken and enqueued; on-cpu's built-in variables are
# the thread switched to; off-cpu's args[] the next thread.
"$1" -q -c "sleep 0.2" -n '
sched:::on-cpu /pid == $target/ {
	@on["on-cpu", execname == "sleep" && curthread->tgid == pid &&
	    curpsinfo->pr_pid == pid && curlwpsinfo->pr_lwpid == tid] = count();
}
sched:::off-cpu /pid == $target/ {
	@off["off-cpu", args[1]->pr_pid != pid || args[0]->pr_lwpid != tid] = count();
}
sched:::sleep /pid == $target/ { @sl["sleep", execname == "sleep"] = count(); }
sched:::wakeup /args[1]->pr_pid == $target/ { @wk["wakeup", args[1]->pr_fname == "sleep"] = count(); }
sched:::enqueue /args[1]->pr_pid == $target/ {
	@en["enqueue", args[2]->cpu_id == args[0]->pr_onpro] = count();
}
sched:::dequeue /args[1]->pr_pid == $target/ { @de["dequeue", args[2]->cpu_id == cpu] = count(); }
END {
	printa("%s %d %@d\n", @on);
	printa("%s %d %@d\n", @off);
	printa("%s %d %@d\n", @sl);
	printa("%s %d %@d\n", @wk);
	printa("%s %d %@d\n", @en);
	printa("%s %d %@d\n", @de);
}' | sed 's/ [1-9][0-9]*$/ N/'
