BEGIN { x = 1; y = x + 2 * 3 - 4 / 2 % 3; z = x << 2 | y >> 1 ^ ~x & 0xff; exit(0); }
