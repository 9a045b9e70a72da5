/* A provider declared again with a probe taking another number of arguments. */
provider twice {
	probe go(int);
};

provider twice {
	probe go(int, int);
};
