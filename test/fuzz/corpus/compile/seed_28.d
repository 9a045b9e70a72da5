BEGIN, END, tick-10ms, profile-1ms, syscall::getpid:entry { n++; }
