/* A provider name that ends with a digit (it would read as a pid). */
provider myprov2 {
	probe go();
};
