dtrace:::ERROR { trace(arg1); trace(arg4); } BEGIN { x = *(int *)0; }
