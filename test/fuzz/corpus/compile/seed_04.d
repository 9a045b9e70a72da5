struct foo { int a; char b[8]; long c; }; struct foo f; BEGIN { f.a = 1; trace(f.a); trace(sizeof(struct foo)); trace(offsetof(struct foo, c)); }
