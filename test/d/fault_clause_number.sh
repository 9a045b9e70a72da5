#!/bin/bash
"$1" -s fault_clause_number.d 2>&1 | sed -E 's/at BPF pc [0-9]+/at BPF pc NNN/'
