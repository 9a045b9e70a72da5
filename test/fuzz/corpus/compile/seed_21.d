provider myapp { probe start(int, char *); probe done__now(); };
