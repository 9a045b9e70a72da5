BEGIN { trace(`max_threads); trace(curthread); trace(walltimestamp); trace(cpu); trace(uid); trace(ppid); }
