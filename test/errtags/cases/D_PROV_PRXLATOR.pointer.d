/* A translated argument of a type no translator makes from the native one. */
provider xl {
	probe go(int a) : (char *a);
};
