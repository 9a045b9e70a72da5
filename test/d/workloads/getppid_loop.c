/* Calls getppid() N times (default 10), then exits. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;

	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
