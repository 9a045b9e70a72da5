/* The provider of workloads/usdt_typed.c (usdt_types.sh). */
provider dttyped {
	probe req(string, int, char *);
	probe narrow(int a) : (long a);
	probe swapped(int a, long b) : (long b, int a);
	probe none();
};
