/* The provider of workloads/usdt_calls.c. */
provider dtcall {
	probe one(int);
	probe eight(int, int, int, int, int, int, int, int);
};
