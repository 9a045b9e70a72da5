#!/bin/sh
# A workload for fbt.sh: a new process (execname cat) maps its program.
cat /proc/version > /dev/null
true
