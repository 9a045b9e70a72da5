/* The provider of workloads/usdt_argmap.c (usdt_argmap.sh): translated argument lists. */
provider dtmap {
	probe dup(int n, char *s) : (char *s, int n, int n);
	probe drop(int a, int b, int c) : (int c);
	probe gone(int a) : ();
	probe pos(int a, int b) : (long, int);
};
