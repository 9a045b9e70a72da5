/* A provider declared again with an argument of another type. */
provider twice {
	probe go(int, char *);
};

provider twice {
	probe go(int, long);
};
