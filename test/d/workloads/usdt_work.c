/*
 * usdt workload, compiled by the tests with the header that `dtrace -h`
 * writes for usdt_prov.d: N times (default 5) fires dttest:::tick from
 * step() and dttest:::mixed (a constant, a global, narrow signed and
 * unsigned values, a wide one) and dttest:::dash-name from main(), and
 * dttest:::is_on when DTTEST_IS_ON_ENABLED() says it is enabled.  Prints
 * how many times that was, to standard output or to the file named by the
 * second argument.
 */
#include <stdio.h>
#include <stdlib.h>

#include "usdt_prov.h"

long global_val = 42;

__attribute__((noinline)) static void step(int i, char *name)
{
	DTTEST_TICK(i, name, -(long)i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5, on = 0;
	char name[16];

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "item%d", i);
		step(i, name);
		DTTEST_MIXED(7, global_val, (short)-3, (unsigned char)200, (long long)i << 33);
		if (DTTEST_IS_ON_ENABLED()) {
			on++;
			DTTEST_IS_ON(on);
		}
		DTTEST_DASH_NAME();
	}
	FILE *out = argc > 2 ? fopen(argv[2], "w") : stdout;
	if (out == NULL)
		return 1;
	fprintf(out, "enabled %d\n", on);
	return fclose(out) != 0;
}
