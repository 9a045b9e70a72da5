/* A translated argument of a struct type no translator makes. */
struct s { int x; };
provider xl {
	probe go(int a, long b) : (long b, struct s a);
};
