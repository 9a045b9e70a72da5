BEGIN { trace(`jiffies); printf("%Y %T\n", walltimestamp, walltimestamp); printf("%5d|%-5s|%05.2x\n", 1, "a", 3); }
