#!/bin/bash
# pid_entry_return again with one perf event link per probe, as on
# kernels without uprobe_multi links.
DTRACE_NO_UPROBE_MULTI=1 exec "$(dirname "$0")/pid_entry_return.sh" "$1"
