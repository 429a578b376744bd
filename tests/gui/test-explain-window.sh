#!/bin/bash
# SPDX-License-Identifier: MIT
# "Explain the Straggler" in a job's window (run under xvfb-run): four
# ranks of tools/afg-gen-db, rank 1 arriving 3 ms late at its collectives
# and each rank with its own number of rows (so their steps start apart).
# Once every rank is read, the action shows the diff of the straggler (B)
# and the rank nearest the median compute time (A) in the compute weight;
# the rule is computed here from ranks.json of `--export`, and the words
# on when the straggler's steps start from the ranks' exported JSON. With
# AFG_SCREENSHOT_DIR set, docs/job-folders.md's picture of that diff.
# Usage: test-explain-window.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"

DB_DIR=$(mktemp -d)
JOB=$DB_DIR/job
db_of () { echo "$JOB/host_${1}_20261206000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$1.db"; }
for rank in 0 1 2 3; do
  mkdir -p "$(dirname "$(db_of "$rank")")"
  "$GEN_DB" --steps 3 --rank "$rank" --ranks 4 --tp 2 --collectives 6 --late-rank 1 --late-ns 3000000 \
    "$(db_of "$rank")" $((20000 + 700 * rank)) >/dev/null || fail "afg-gen-db failed"
done
OUT=$WORK/cli
"$EXE" --export -q -f json -o "$OUT" "$JOB" || fail "the CLI's folder export failed"

# The straggler (ranks.json's), the rank nearest the median of the
# ranks' compute time (the mean of the middle two for an even count; not
# the straggler; ties: the lowest rank), and how much later the
# straggler's steps start than that rank's, on average over the steps
# both have (by id), in the window's words.
read -r STRAGGLER REFERENCE WANT <<< "$(python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
ranks = json.load(open(out + "/ranks.json"))
s = ranks["straggler"]
compute = {r["rank"]: r["device"]["compute_ns"] for r in ranks["ranks"] if r["device"]}
values = sorted(compute.values())
m = len(values) // 2
twice = 2 * values[m] if len(values) % 2 else values[m - 1] + values[m]
ref = min((r for r in compute if r != s), key=lambda r: (abs(2 * compute[r] - twice), r))
def starts(rank):
    return {st["id"]: st["start_ns"] for st in json.load(open("%s/rank%d/flamegraph.json" % (out, rank)))["steps"]}
a, b = starts(s), starts(ref)
common = [i for i in a if i in b]
offset = int(sum(a[i] - b[i] for i in common) / len(common))
def duration(ns):
    if abs(ns) < 1000: return "%d ns" % ns
    if abs(ns) < 1000000: return "%.1f µs" % (ns / 1e3)
    if abs(ns) < 1000000000: return "%.2f ms" % (ns / 1e6)
    return "%.3f s" % (ns / 1e9)
over = "mean over the %d steps both have" % len(common) if len(common) > 1 else "the 1 step both have"
if offset > 0:
    words = "rank %d's steps start %s later than rank %d's (%s)" % (s, duration(offset), ref, over)
elif offset < 0:
    words = "rank %d's steps start %s earlier than rank %d's (%s)" % (s, duration(-offset), ref, over)
else:
    words = "rank %d's steps start when rank %d's do (%s)" % (s, ref, over)
print(s, ref, words)
PY
)"
[ "$STRAGGLER" = 1 ] || fail "ranks.json's straggler is '$STRAGGLER', not the late rank 1"
[ -n "$WANT" ] || fail "could not read the CLI's JSON"

start_app "$JOB"
wait_state page=graph ranks=4/4 straggler=1 explain=
# The sidebar's verdict is index.html's.
"$EXE" --export -q -o "$WORK/page" "$JOB" || fail "the CLI's folder page failed"
VERDICT=$(sed -n 's|.*<p id="verdict">\(Straggler: rank 1\. [^<]*collectives\.\).*|\1|p' "$WORK/page/index.html")
[ -n "$VERDICT" ] || fail "index.html has no verdict naming rank 1"
[ "$(state_field verdict)" = "$VERDICT" ] || fail "the window's verdict '$(state_field verdict)' is not index.html's '$VERDICT'"
ok "all 4 ranks read; rank 1 is the straggler, in index.html's words"

act win.explain-straggler
wait_state page=graph mode=diff weight=compute "file=$(db_of "$REFERENCE")" "compared=$(db_of "$STRAGGLER")" \
  "explain=$WANT"
if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
  WID=$(timeout 10 xdotool search --sync --onlyvisible --name "↔" | head -1)
  [ -n "$WID" ] || fail "no diff window for the screenshot"
  eval "$(xdotool getwindowgeometry --shell "$WID")"
  import -window root -crop "${WIDTH}x${HEIGHT}+0+0" +repage "$AFG_SCREENSHOT_DIR/screenshot-window-explain.png"
fi
ok "Explain the Straggler: rank $STRAGGLER against rank $REFERENCE (nearest the median compute) in compute time: $WANT"

# Leaving the diff drops the words.
act win.escape
wait_state mode=profile explain=
ok "leaving the diff drops the explanation"
echo "1..$N"
