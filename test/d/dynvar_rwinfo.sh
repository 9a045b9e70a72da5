#!/bin/bash
# The Guide's rwinfo.d pattern (Structs chapter): members of a struct
# held in an associative array keyed by probefunc, assigned and
# incremented at system call entry, read and added to at return.
d=$1
"$d" -q -c "$DT_WORKLOADS/getppid_loop 10" -n '
struct callinfo {
	uint64_t ts;
	uint64_t elapsed;
	uint64_t calls;
};
struct callinfo i[string];

syscall::getppid:entry /pid == $target/
{
	i[probefunc].ts = timestamp;
	i[probefunc].calls++;
}

syscall::getppid:return /i[probefunc].ts != 0 && pid == $target/
{
	i[probefunc].elapsed += timestamp - i[probefunc].ts;
}

END
{
	printf("getppid calls %d, elapsed counted %d\n", i["getppid"].calls,
	    i["getppid"].elapsed > 0);
}'
echo "rc=$?"
