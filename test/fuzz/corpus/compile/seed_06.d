inline int TEN = 10; BEGIN /TEN > 5/ { printf("%d %s %x\n", TEN, "ten", TEN); }
