#!/bin/bash
# The stable providers' probes with -lv: stability and argument types
# (translated types for the translated arguments).
for p in proc:::create proc:::exec proc:::signal-send sched:::off-cpu sched:::on-cpu \
    sched:::enqueue sched:::tick io:::start; do
	"$1" -lvn "$p" | sed 1d | sed -E '1s/^ *[0-9]+ +/ID /'
done
