#!/usr/bin/env python3
"""BPF objects of dtrace that nothing holds any more (test/stress).

  bpf_objects.py maxids             the highest prog, map and link IDs now
  bpf_objects.py orphans P M L [PID]
                                    dtrace's programs and maps (dt_prog_*,
                                    dt_*, dtrace.*) with IDs above P and M
                                    that no process holds: not through an fd
                                    (/proc/*/fdinfo), a link or a perf event
                                    it holds, nor a program it holds (maps);
                                    one "type id name" line each.  With PID,
                                    only the objects that process holds,
                                    each listed if nobody else holds it
                                    (a check that a running dtrace's
                                    objects are recognized as dtrace's).

An object that nothing holds and that still exists once the kernel has had
time to free it is pinned or attached for good: left behind.

bpftool failing (or missing) is an error (exit status 2), never an empty
list: a lookup that cannot be made must not read as "nothing left".
"""
import glob
import json
import subprocess
import sys


def die(msg):
    print("bpf_objects.py: " + msg, file=sys.stderr)
    sys.exit(2)


def bpftool(*args):
    try:
        r = subprocess.run(["bpftool", "-j", *args], capture_output=True, text=True)
    except OSError as e:
        die("cannot run bpftool: %s" % e)
    if r.returncode != 0 or not r.stdout.strip():
        die("bpftool %s failed (exit status %d): %s"
            % (" ".join(args), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout)


def held_ids(by, progs, links, perf):
    """What the processes whose pid by() accepts hold, directly or not."""
    held = {"prog": set(), "map": set(), "link": set()}
    for f in glob.glob("/proc/[0-9]*/fdinfo/*"):
        if not by(int(f.split("/")[2])):
            continue
        try:
            with open(f) as fh:
                for line in fh:
                    key, _, val = line.partition(":")
                    kind = key.strip()[:-3] if key.strip().endswith("_id") else None
                    if kind in held and val.strip().isdigit():
                        held[kind].add(int(val))
        except OSError:
            pass
    for p in perf:
        if "prog_id" in p and by(p.get("pid")):
            held["prog"].add(p["prog_id"])
    for link in links:
        if link["id"] in held["link"] and "prog_id" in link:
            held["prog"].add(link["prog_id"])
    for p in progs:
        if p["id"] in held["prog"]:
            held["map"].update(p.get("map_ids", []))
    return held


def is_ours(kind, name):
    if kind == "prog":
        return name.startswith("dt_")
    return name.startswith("dt_") or name.startswith("dtrace.")


def main():
    if sys.argv[1:] == ["maxids"]:
        ids = [max([o["id"] for o in bpftool(k, "list")], default=0)
               for k in ("prog", "map", "link")]
        print(*ids)
        return 0
    if len(sys.argv) not in (5, 6) or sys.argv[1] != "orphans":
        print(__doc__, file=sys.stderr)
        return 2
    above = {"prog": int(sys.argv[2]), "map": int(sys.argv[3])}
    only = int(sys.argv[5]) if len(sys.argv) == 6 else None
    progs = bpftool("prog", "list")
    links = bpftool("link", "list")
    perf = bpftool("perf", "list")
    maps = bpftool("map", "list")
    held = held_ids(lambda pid: pid != only, progs, links, perf)
    mine = held_ids(lambda pid: pid == only, progs, links, perf) if only else None
    for kind, objs in (("prog", progs), ("map", maps)):
        for o in objs:
            name = o.get("name", "")
            if mine is not None and o["id"] not in mine[kind]:
                continue
            if o["id"] > above[kind] and is_ours(kind, name) and o["id"] not in held[kind]:
                print(kind, o["id"], name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
