/* A provider name with the scoping operator. */
provider my`prov {
	probe go();
};
