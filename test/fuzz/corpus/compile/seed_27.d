BEGIN { print(1); print("s"); trace(probeprov); trace(probemod); trace(probefunc); trace(probename); }
