/* A probe declared twice in one provider declaration. */
provider dup {
	probe go();
	probe stop();
	probe go(int);
};
