#!/bin/bash
# SPDX-License-Identifier: MIT
# The step strip under the real pointer (run under xvfb-run): on a DB of
# tools/afg-gen-db with 8 steps of unequal length, step 5 three times as
# long, a click, a shift-click, a drag, arrow keys and Esc scope the
# window; each scope's tree (root total, node count, from the state line)
# must equal what `--export -f json --merge-addresses --steps A-B` writes
# (the window merges address variants by default) for the same DB,
# host time and NPU device time alike.
# Usage: test-steps-window.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
. "$(dirname "$0")/strip-lib.sh"

steps_db 40000

# cli_tree [A-B]: "ROOT_NS NODES NPU_NS" of the CLI's JSON for the scope
# (none: the whole profile), counted as the window counts: root, threads,
# frames; NPU_NS the device time (the graph's NPU weight).
cli_tree () {
  local out=$WORK/cli-${1:-all}
  mkdir -p "$out"
  "$EXE" --export -q --merge-addresses -f json -o "$out" ${1:+--steps "$1"} "$DB" || fail "the CLI failed for '${1:-}'"
  python3 - "$out/flamegraph.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def count(nodes):
    return sum(1 + count(n.get("children", [])) for n in nodes)
threads = d["threads"]
print(sum(t["total_ns"] for t in threads), 1 + len(threads) + count([c for t in threads for c in t.get("children", [])]),
      sum(t["npu_total_ns"] for t in threads))
PY
}

# The page's rule on the CLI's steps: slow when >= 1.5x the lower median.
cli_slow () {
  python3 - "$WORK/cli-all/flamegraph.json" <<'PY'
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
d = [s["end_ns"] - s["start_ns"] for s in steps]
median = sorted(d)[(len(d) - 1) >> 1]
print(",".join(str(s["id"]) for s, x in zip(steps, d) if len(d) > 1 and x > 0 and x >= 1.5 * median))
PY
}

# expect_scope SCOPE [A-B]: the window shows SCOPE, its tree the CLI's.
expect_scope () {
  local root nodes npu
  read -r root nodes npu <<< "$(cli_tree "${2:-}")"
  wait_state page=graph "scope=$1" "root_ns=$root" "nodes=$nodes" "npu_ns=$npu"
}

read -r ALL_ROOT ALL_NODES ALL_NPU <<< "$(cli_tree)"
[ "$ALL_NPU" -gt 0 ] || fail "the generated DB has no NPU time"
SLOW=$(cli_slow)
[ "$SLOW" = 5 ] || fail "the generated DB should have step 5 slow, the rule gives '$SLOW'"

start_app "$DB"
wait_state page=graph scope= "root_ns=$ALL_ROOT" "nodes=$ALL_NODES" "npu_ns=$ALL_NPU" "slow=$SLOW" strip=8
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^steps.db\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"
ok "the whole profile, as the CLI exports it; the strip marks step $SLOW slow, as the page's rule does"

find_strip "$WID" "$WIDTH"
for s in 0 1 2 3 4 5 6 7; do
  [ -n "${FIRST[$s]:-}" ] || fail "step $s has no bar under the pointer"
done
[ "${FIRST[0]}" -lt "${FIRST[7]}" ] || fail "the steps are not in order"
ok "hovering the strip names the 8 steps in order"

xdotool mousemove --window "$WID" "$(bar 2)" "$STRIP_Y" click 1
expect_scope 2 2
[ "$(xdotool getwindowname "$WID")" = "step 2 — steps.db" ] || fail "title: $(xdotool getwindowname "$WID")"
ok "a click on step 2 shows its tree, the CLI's --steps 2, and the title says so"

xdotool mousemove --window "$WID" "$(bar 4)" "$STRIP_Y" keydown shift click 1 keyup shift
expect_scope 2-4 2-4
[ "$(xdotool getwindowname "$WID")" = "steps 2–4 — steps.db" ] || fail "title: $(xdotool getwindowname "$WID")"
ok "a shift-click on step 4 extends it to steps 2-4 (the CLI's --steps 2-4)"

xdotool mousemove --window "$WID" "$(bar 6)" "$STRIP_Y" mousedown 1
for s in 5 4 3; do
  hover_at "$WID" "$(bar "$s")" "$STRIP_Y"
done
xdotool mouseup 1
expect_scope 3-6 3-6
ok "a drag from step 6 to step 3 selects steps 3-6 (the CLI's --steps 3-6)"

# Tab from the strip reaches "Per step": it divides by the 4 steps in scope.
xdotool key Tab space
wait_state perstep=1 divisor=4 scope=3-6
xdotool key shift+Tab
ok "Tab from the strip reaches Per step, which divides steps 3-6 by 4"

# In device time (Ctrl+N: compute, the default device weight) too: the
# scoped trees keep the weight.
xdotool key ctrl+n
wait_state weight=compute scope=3-6
xdotool key Right
expect_scope 4 4
xdotool key shift+Right
expect_scope 4-5 4-5
wait_state divisor=2 weight=compute
xdotool key ctrl+n
wait_state weight=host scope=4-5
ok "Right and Shift+Right in the focused strip pick step 4, then steps 4-5, in NPU compute time"

xdotool key Escape
wait_state scope= "root_ns=$ALL_ROOT" "nodes=$ALL_NODES" "npu_ns=$ALL_NPU" divisor=8
xdotool key Tab space
wait_state perstep=0 divisor=1
xdotool key shift+Tab
ok "Esc goes back to the whole profile (Per step: all 8 steps)"

# The search and the picked thread carry over to a new scope.
search aclnn
poll 10 has_matches
MATCHES=$(state_field matches)
[ -n "$MATCHES" ] && [ "$MATCHES" -gt 0 ] || fail "the search found nothing"
xdotool mousemove --window "$WID" "$(bar 5)" "$STRIP_Y" click 1
expect_scope 5 5
poll 10 has_matches
[ -n "$(state_field matches)" ] || fail "the search was lost in the new scope"
[ "$(state_field zoom)" = "All threads" ] || fail "zoom: $(state_field zoom)"
ok "the search (aclnn) still holds in step 5's tree"

# The picked thread carries over too (the picker is the header bar's
# drop-down; its second entry is the first thread).
pick GtkDropDown 1
barrier
THREAD=$(state_field thread)
[ -n "$THREAD" ] || fail "could not pick a thread"
xdotool mousemove --window "$WID" "$(bar 2)" "$STRIP_Y" click 1
expect_scope 2 2
wait_state "thread=$THREAD" "zoom=$THREAD"
ok "the picked thread ($THREAD) carries over to step 2"

# A DB without steps: no strip.
NO_STEPS=$DB_DIR/nosteps.db
sqlite3 "$DB" ".backup '$NO_STEPS'" || fail "sqlite3 .backup"
sqlite3 "$NO_STEPS" "DELETE FROM STEP_TIME; DELETE FROM PYTORCH_API WHERE name IN
  (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%')" || fail "could not drop the steps"
stop_app
start_app "$NO_STEPS"
wait_state page=graph scope= strip= slow=
ok "a DB without steps shows no step strip"
echo "1..$N"
