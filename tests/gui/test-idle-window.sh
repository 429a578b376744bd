#!/bin/bash
# SPDX-License-Identifier: MIT
# The device timeline in the window (run under xvfb-run), on a generated
# DB of 8 steps: the step strip's stacked bars are each step's "device"
# of the CLI's JSON; "While NPU idle" (win.npu-idle) shows the tree the
# CLI exports with --npu-idle, for all steps and for a step picked in the
# strip (--steps N), and off again the whole profile.
# Usage: test-idle-window.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"

DB_DIR=$(mktemp -d)
DB=$DB_DIR/idle.db
"$GEN_DB" --steps 8 "$DB" 40000 >/dev/null || fail "afg-gen-db failed"

# cli ARGS…: "ROOT_NS NODES BARS" of the CLI's JSON with ARGS (BARS as the
# state line's "bars": each step's device split, steps joined by ",").
cli () {
  local out=$WORK/cli
  rm -rf "$out"
  "$EXE" --export -q -f json --merge-addresses -o "$out" "$@" "$DB" || fail "the CLI failed on $*"
  python3 - "$out/flamegraph.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def count(nodes):
    return sum(1 + count(n.get("children", [])) for n in nodes)
threads = d["threads"]
bars = ",".join("%d %d %d %d" % (s["device"]["compute_ns"], s["device"]["comm_ns"], s["device"]["other_ns"],
                                 s["device"]["free_ns"]) for s in d["steps"])
print(sum(t["total_ns"] for t in threads), 1 + len(threads) + count([c for t in threads for c in t.get("children", [])]),
      bars.replace(" ", "_"))
PY
}

read -r ROOT NODES BARS <<< "$(cli)"
read -r IDLE_ROOT IDLE_NODES _ <<< "$(cli --npu-idle)"
[ "$IDLE_ROOT" -gt 0 ] && [ "$IDLE_ROOT" -lt "$ROOT" ] || fail "the idle scope should hold part of the time ($IDLE_ROOT of $ROOT)"

start_app "$DB"
wait_state page=graph idle=0 "root_ns=$ROOT" "nodes=$NODES" strip=8
[ "$(state_field bars | tr ' ' _)" = "$BARS" ] || fail "the strip's bars '$(state_field bars)' are not the JSON's '$BARS'"
ok "the strip stacks each step as its device split in the JSON"

act win.npu-idle
wait_state page=graph idle=1 "root_ns=$IDLE_ROOT" "nodes=$IDLE_NODES"
ok "While NPU idle shows the tree of --npu-idle ($IDLE_ROOT of $ROOT ns)"

# A trace shows every instant: refused while idle, as --npu-idle -f trace is.
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "idle.db" | head -1)
[ -n "$WID" ] || fail "no window"
wait_focus "$WID"
export_to "$WORK/idle.trace.json"
wait_state "notice=Could not export: a trace shows every instant, not only those the NPU is idle: turn “While NPU idle” off to write one"
[ ! -e "$WORK/idle.trace.json" ] || fail "a trace was written while idle"
ok "Export to a trace while NPU idle is refused, as the CLI refuses --npu-idle -f trace"
act win.dismiss-notice
wait_state notice=

# A step picked in the strip narrows the idle scope to it.
for y in $(seq 40 2 160); do
  hover_at "$WID" 30 "$y"
  STEP=$(state_field step)
  [ -n "$STEP" ] && break
done
[ -n "$STEP" ] || fail "no step bar under the pointer"
xdotool click 1
read -r STEP_ROOT STEP_NODES _ <<< "$(cli --npu-idle --steps "$STEP")"
wait_state page=graph idle=1 "scope=$STEP" "root_ns=$STEP_ROOT" "nodes=$STEP_NODES"
ok "a step picked while idle: the tree of --npu-idle --steps $STEP"

act win.npu-idle
read -r PLAIN_ROOT PLAIN_NODES _ <<< "$(cli --steps "$STEP")"
wait_state page=graph idle=0 "scope=$STEP" "root_ns=$PLAIN_ROOT" "nodes=$PLAIN_NODES"
xdotool key Escape
wait_state page=graph idle=0 scope= "root_ns=$ROOT" "nodes=$NODES"
ok "off again: the step's whole tree, and Esc the whole profile"
stop_app
