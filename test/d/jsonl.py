#!/usr/bin/env python3
"""Check that stdin is NDJSON as dtrace -x oformat=json writes it, then run
the Python code given as argv[1] with `ev`, the list of objects.

Strict: every line is one JSON object followed by '\n' (no blank lines, no
trailing garbage), the whole stream is valid UTF-8, no duplicate keys, no
NaN or Infinity."""
import json
import sys


def no_dups(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("duplicate key %r" % k)
        d[k] = v
    return d


def bad_constant(c):
    raise ValueError("non-JSON constant %s" % c)


raw = sys.stdin.buffer.read()
text = raw.decode("utf-8")          # raises on invalid UTF-8
if text and not text.endswith("\n"):
    sys.exit("jsonl: output does not end with a newline")
ev = []
for n, line in enumerate(text.split("\n")[:-1] if text else [], 1):
    try:
        o = json.loads(line, object_pairs_hook=no_dups, parse_constant=bad_constant)
    except ValueError as e:
        sys.exit("jsonl: line %d is not JSON (%s): %r" % (n, e, line))
    if not isinstance(o, dict) or "event" not in o:
        sys.exit("jsonl: line %d is not an event object: %r" % (n, line))
    ev.append(o)
print("valid: %d objects" % len(ev))
if len(sys.argv) > 1:
    exec(sys.argv[1])
