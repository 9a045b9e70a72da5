/* Opens a file that does not exist (ENOENT), then reads 3 bytes from /dev/zero. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[3];
	int fd = open("/nonexistent/dtrace-test", O_RDONLY);
	int z = open("/dev/zero", O_RDONLY);

	(void)fd;
	if (z >= 0 && read(z, buf, sizeof(buf)) != 3)
		return 1;
	return 0;
}
