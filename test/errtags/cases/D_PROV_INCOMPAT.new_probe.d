/* A provider declared again with a probe the first declaration lacks. */
provider twice {
	probe go();
};

provider twice {
	probe go();
	probe stop();
};
