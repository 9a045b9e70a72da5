syscall:::entry { @c[probefunc] = count(); @s[pid] = sum(arg0); @m = max(arg1); @n = min(arg1); @a = avg(arg2); @d = stddev(arg2); }
