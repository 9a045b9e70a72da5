typedef unsigned long ulong_t; enum color { RED, GREEN = 5, BLUE }; BEGIN { trace((ulong_t)BLUE); }
