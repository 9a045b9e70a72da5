/* A provider name of 64 characters (at most 63). */
provider aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {
	probe go();
};
