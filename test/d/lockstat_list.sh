#!/bin/bash
# The lockstat provider's probes (module vmlinux, no function) with -lv:
# DTrace's stability and argument types, listed wherever the probes can
# be made or not; RW_READER and RW_WRITER are DTrace's constants.
"$1" -lv -P lockstat | sed -E 's/^ *[0-9]+ +/ID /'
"$1" -qn 'BEGIN { printf("RW_READER %d RW_WRITER %d\n", RW_READER, RW_WRITER); exit(0); }'
