#!/bin/bash
# SPDX-License-Identifier: MIT
# "Merge Address Variants" in the window, end to end under
# xvfb-run: on by default, for one profile (its tree is the CLI's with
# --merge-addresses) and for a comparison (the samples' .diff.expected);
# its action (the main menu's item) turns it off and on, the tree is built
# again with its steps kept, and the choice is remembered at the next start.
# Usage: test-merge-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

# A compiled schema and the keyfile backend: the choice must be kept.
keyfile_settings

A=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level0_rank0.db
B=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level1_rank0.db
EXPECTED=$AFG_SAMPLES_DIR/level0_rank0-vs-level1_rank0.diff.expected

# cli_nodes_of DB [OPTION…]: the node count of the CLI's JSON of DB,
# counted as the window counts (root, threads, frames).
cli_nodes_of () {
  local db=$1 out=$WORK/cli$#
  shift
  rm -rf "$out"
  mkdir -p "$out"
  "$EXE" --export -q -f json -o "$out" "$@" "$db" || fail "the CLI failed"
  python3 - "$out/flamegraph.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def count(nodes):
    return sum(1 + count(n.get("children", [])) for n in nodes)
print(1 + len(d["threads"]) + count([c for t in d["threads"] for c in t.get("children", [])]))
PY
}
cli_nodes () { cli_nodes_of "$A" "$@"; }

# toggle TITLE: the main menu's "_Merge Address Variants" in the window.
toggle () {
  WID=$(timeout 10 xdotool search --sync --onlyvisible --name "$1" | head -1)
  [ -n "$WID" ] || fail "no window named '$1'"
  act win.merge-addresses
}

MERGED=$(cli_nodes --merge-addresses)
PLAIN=$(cli_nodes)
[ "$PLAIN" -gt "$MERGED" ] || fail "the sample should have address variants ($PLAIN vs $MERGED nodes)"
DIFF_NODES=$(( $(grep -c . "$EXPECTED") + 1 ))

start_app "$A"
wait_state page=graph mode=profile merged=1 "nodes=$MERGED"
ok "one profile: merged by default, the tree of --merge-addresses ($MERGED nodes)"

toggle "^$(basename "$A")\$"
wait_state page=graph merged=0 "nodes=$PLAIN"
ok "the menu turns it off: the tree of the plain export ($PLAIN nodes)"
stop_app

start_app "$A"
wait_state page=graph merged=0 "nodes=$PLAIN"
ok "off is remembered at the next start"
toggle "^$(basename "$A")\$"
wait_state page=graph merged=1 "nodes=$MERGED"
ok "and on again"
stop_app

start_app --diff "$A" "$B"
wait_state page=graph mode=diff merged=1 "nodes=$DIFF_NODES"
TITLE="$(basename "$A") ↔ $(basename "$B")"
toggle "^$TITLE\$"
wait_state page=graph mode=diff merged=0 "file=$A" "compared=$B"
[ "$(state_field nodes)" -gt "$DIFF_NODES" ] || fail "the unmerged diff should have more frames"
ok "a comparison: merged by default (the expected diff), built again without merging"
stop_app

# A job folder of the two samples: its first rank is built as
# the setting says (off, remembered from above), and the toggle builds it
# again, as for one DB.
JOB=$WORK/job
for rank in 0 1; do
  mkdir -p "$JOB/rank${rank}_ascend_pt/ASCEND_PROFILER_OUTPUT"
  cp "$([ $rank = 0 ] && echo "$A" || echo "$B")" \
    "$JOB/rank${rank}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$rank.db"
done
start_app "$JOB"
wait_state page=graph mode=profile ranks=2/2 merged=0
RANK_DB=$(state_field file)
case "$RANK_DB" in "$JOB"/rank*) ;; *) fail "no rank of the job shown: file=$RANK_DB" ;; esac
wait_state page=graph merged=0 "nodes=$(cli_nodes_of "$RANK_DB")"
# A job's window is named after its folder.
toggle "^job\$"
wait_state page=graph merged=1 "file=$RANK_DB" "nodes=$(cli_nodes_of "$RANK_DB" --merge-addresses)"
ok "a job folder's first rank follows the setting, off and toggled on (the CLI's --merge-addresses)"
stop_app
echo "1..$N"
