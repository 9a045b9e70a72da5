/* A system provider declared with a probe it does not have. @root */
provider syscall {
	probe nosuchprobe();
};
