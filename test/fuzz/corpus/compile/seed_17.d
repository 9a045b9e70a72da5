BEGIN { x = alloca(16); bcopy(&y, x, 8); trace(*(int *)x); }
