/* Clauses of one probe run in program order; predicates and globals. */
#pragma D option quiet

BEGIN { i = 1; }
BEGIN /i == 1/ { printf("second sees %d\n", i); i = 2; }
BEGIN /i == 1/ { printf("never\n"); }
BEGIN /i == 2/ { printf("third sees %d\n", i); }
BEGIN { exit(0); }
END { printf("end %d\n", i); }
