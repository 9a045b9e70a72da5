#!/bin/bash
# fds[] gives each file's path as the kernel's d_path() writes it, the
# name and directory cut from it, its file system and mount point: for a
# regular file (whose name has a space), the same at descriptor 100, a
# /proc file, a pipe, a socket, an eventfd, a memfd, an unlinked file and,
# after a chroot, the regular file relative to the new root.  The paths
# are compared with what /proc/self/fd says in the workload itself; the
# mount point of the regular file with stat(1)'s, its file system with
# /proc/self/mounts'.
[ -n "${DT_WORKLOADS:-}" ] || { echo "fds_path: DT_WORKLOADS is not set" >&2; exit 77; }
dir=$(mktemp -d /var/tmp/fds_path.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/sub dir"
echo hello > "$dir/sub dir/file.txt"
mnt=$(stat -c %m "$dir/sub dir/file.txt")
fs=$(awk -v m="$mnt" '$2 == m { t = $3 } END { print t }' /proc/self/mounts)
# -c splits its command at blanks: the paths with one go through a script, which execs.
printf '#!/bin/sh\nexec "%s" "%s" "%s" "%s" "%s"\n' "$DT_WORKLOADS/fds_work" \
    "$dir/sub dir/file.txt" "$dir/gone" "$dir" "/sub dir/file.txt" > "$dir/run"
chmod +x "$dir/run"
# The workload's descriptor numbers are in the output: whatever the caller
# left open (ctest, CI's pipes) must not shift them, so dtrace and the
# workload start with only 0, 1 and 2 (and bash's own script, close-on-exec).
for d in /proc/$$/fd/*; do
	n=${d##*/}
	[ "$n" -gt 2 ] && [ "$n" != 255 ] && eval "exec $n>&-"
done

"$1" -q -c "$dir/run" -o "$dir/d.out" -n '
syscall::read:entry /pid == $target && arg2 == 7777/ {
	printf("fd %d %s\n", arg0, fds[arg0].fi_pathname);
	printf("parts %d %s|%s|%s|%s|%d|%x\n", arg0, fds[arg0].fi_name, fds[arg0].fi_dirname,
	    fds[arg0].fi_fs, fds[arg0].fi_mount, fds[arg0].fi_offset, fds[arg0].fi_oflags & 3);
}' > "$dir/w.out" || echo "dtrace or the workload failed"

# What the workload saw and what fds[] said, in the same order.
if diff <(grep '^fd ' "$dir/w.out") <(grep '^fd ' "$dir/d.out"); then
	echo "fi_pathname agrees with /proc/self/fd for $(grep -c '^fd ' "$dir/w.out") files"
fi
# The test directory's file system and mount point are the machine's:
# FS and MNT when they are what /proc/self/mounts and stat say.
grep '^parts ' "$dir/d.out" | awk -F'|' -v OFS='|' -v dir="$dir" -v mnt="$mnt" -v fs="$fs" '
	{ if (index($2, dir) == 1 || $2 == "/sub dir") {
		if ($3 == fs) $3 = "FS"
		if ($4 == mnt) $4 = "MNT"
	  }
	  gsub(dir, "DIR"); print }' |
    sed -e 's/:\[[0-9][0-9]*\]/:[INO]/' -e 's|/proc/[0-9][0-9]*|/proc/PID|g'
