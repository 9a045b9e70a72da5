#!/bin/bash
# io:::wait-start and wait-done are made with BPF trampolines (fentry and
# fexit on submit_bio_wait()), which this kernel may refuse: they are
# listed with their arguments, enabling one is an error that says what is
# missing (the step that failed and the kernel's reason replaced), and
# io::: enables the others.  Where trampolines work, the kernel lab's
# test/kernel-lab/io_wait.sh tests them.
if "$1" -e -n 'io:::wait-start' 2>/dev/null; then
	echo "io_wait: BPF trampolines work here; the kernel lab tests io:::wait-start" >&2
	exit 77
fi
"$1" -lvn 'io:::wait-*' | sed -n 's/^ *[0-9][0-9]* *io *vmlinux */probe /p; /args\[/p'
for p in wait-start wait-done; do
	"$1" -q -n "io:::$p { exit(0); }" 2>&1 | sed -E 's/(loading|attaching) one failed here: .*/trying one failed here: ERR/'
	echo "exit status ${PIPESTATUS[0]}"
done
"$1" -n 'io::: {}' -n 'BEGIN { exit(0); }' 2>&1 >/dev/null | grep "io:::"
