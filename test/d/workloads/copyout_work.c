/*
 * copyout() and copyoutstr() targets: write(-1, buf) and write(-2, str)
 * with writable buffers a D script may overwrite, then prints them.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[16] = "xxxxxxxxxxxxxxx";
	char str[16] = "yyyyyyyyyyyyyyy";

	(void)!write(-1, buf, sizeof(buf));
	(void)!write(-2, str, sizeof(str));
	printf("%s\n%s\n", buf, str);
	return 0;
}
