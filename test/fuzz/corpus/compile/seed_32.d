BEGIN
{
	trace(`jiffies);
	trace(vmlinux`max_pfn + 1);
	trace(&`init_task);
	trace(`__per_cpu_offset[cpu]);
	`jiffies = 1;
	x[1] = ext4`foo;
	printf("%s\n", "a\?b\\c\'d\"e\x41\102");
	s = strchr("abc", 'z');
	printf("%d\n", s == NULL);
}
