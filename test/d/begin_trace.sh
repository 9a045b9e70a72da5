#!/bin/bash
# Default (unquiet) output with the CPU and ID columns; BEGIN runs on the
# consumer's CPU, so only the probe ID column is checked exactly.
"$1" -s begin_trace.d | sed -E 's/^ +[0-9]+ /  C /'
