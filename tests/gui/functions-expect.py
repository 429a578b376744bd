# SPDX-License-Identifier: MIT
"""What the window's Functions panel must show, from the CLI's JSON.

Usage: functions-expect.py JSON top KEY         the first row by KEY
                                                (calls|total, descending;
                                                ties by self, then JSON order)
       functions-expect.py JSON rows TEXT       functions whose name holds TEXT
       functions-expect.py JSON function NAME   highlighted, callers, callees,
                                                calls: the state line's values
       functions-expect.py JSON frame NAME      the calls of the one frame NAME
"""
import json
import sys


def frames(doc):
    """(node, ancestor names) of every frame, per thread."""
    for thread in doc["threads"]:
        stack = [(c, ()) for c in reversed(thread.get("children", []))]
        while stack:
            node, above = stack.pop()
            yield node, above
            for c in reversed(node.get("children", [])):
                stack.append((c, above + (node["name"],)))


def function(doc, name):
    outer = [(n, above) for n, above in frames(doc) if n["name"] == name and name not in above]
    count = sum(1 for n, _ in frames(doc) if n["name"] == name)
    callers = {above[-1] for _, above in outer if above}
    callees = {c["name"] for n, _ in outer for c in n.get("children", [])}
    total = sum(n["total_ns"] for n, _ in outer)
    calls = next(f["calls"] for f in doc["functions"] if f["name"] == name)
    print(count, f"{len(callers)} {total}", f"{len(callees)} {total}", calls, sep="\t")


def main():
    doc = json.load(open(sys.argv[1]))
    what, arg = sys.argv[2], sys.argv[3]
    fs = doc["functions"]
    if what == "top":
        key = {"calls": "calls", "total": "total_ns"}[arg]
        print(sorted(fs, key=lambda f: (-f[key], -f["self_ns"]))[0]["name"])
    elif what == "rows":
        print(sum(1 for f in fs if arg.lower() in f["name"].lower()))
    elif what == "function":
        function(doc, arg)
    elif what == "frame":
        matches = [n for n, _ in frames(doc) if n["name"] == arg]
        assert len(matches) == 1, f"{arg} is {len(matches)} frames"
        print(matches[0]["calls"])


main()
