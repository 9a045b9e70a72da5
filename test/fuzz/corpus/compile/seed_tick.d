/* tick-N fires repeatedly on one CPU; exit from the fifth firing. */
#pragma D option quiet

tick-10ms { n++; }
tick-10ms /n == 5/ { printf("%d %s\n", n, probename); exit(0); }
