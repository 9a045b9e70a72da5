/* exit(n) sets dtrace's exit status; END still runs. */
#pragma D option quiet

BEGIN { exit(3); }
END { printf("end\n"); }
