#!/bin/bash
"$1" -s spec_fault.d 2>&1 | sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/'
