/* The provider of the usdt workload (usdt_work.c); see usdt_args.sh. */
provider dttest {
	probe tick(int i, char *name, long neg);
	probe mixed(int, long, short, unsigned char, long long);
	probe is_on(int);
	probe dash__name();
};
