#!/bin/bash
# SPDX-License-Identifier: MIT
# The window's NPU weight (all device tasks) and Ctrl+N (run under
# xvfb-run): on a real sample with NPU data, the weight menu's "All device
# tasks" and Ctrl+N switch the widths between host and NPU time; the shown NPU
# total, the search share and the root's tooltip are the CLI JSON's
# figures; the choice is remembered (GSettings, keyfile backend); on a DB
# without TASK the device weights are off and Ctrl+N does nothing.
# Usage: test-npu-window.sh ASCEND_FLAMEGRAPH MAKE_TEST_DB
EXE=$1
MAKE_DB=$2
. "$(dirname "$0")/e2e-lib.sh"

DB=${AFG_SAMPLES_DIR:?}/ascend_pytorch_profiler_level1_rank0.db
NEEDLE=allreduce
keyfile_settings

# The CLI's figures: host and NPU root totals, the device time linked and
# unlinked, the share of frames named *$NEEDLE* in NPU time (the search's
# rule: the topmost matches), and both root totals as the tooltip prints them.
"$EXE" --export -q -f json -o "$WORK/cli" "$DB" || fail "the CLI failed"
read -r HOST_NS NPU_NS LINKED UNLINKED SHARE HOST_TEXT NPU_TEXT <<< "$(python3 - "$WORK/cli/flamegraph.json" "$NEEDLE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
needle = sys.argv[2].lower()
def matched(nodes):
    return sum(n["npu_total_ns"] if needle in n["name"].lower() else matched(n.get("children", []))
               for n in nodes)
def ms(ns):
    return "%.2fms" % (ns / 1e6)
threads = d["threads"]
host = sum(t["total_ns"] for t in threads)
npu = sum(t["npu_total_ns"] for t in threads)
share = 100.0 * matched([c for t in threads for c in t.get("children", [])]) / npu
assert share >= 10, share  # "%.1f%%" is the percent rule from 10 % up
print(host, npu, d["npu"]["ns"] - d["npu"]["unlinked_ns"], d["npu"]["unlinked_ns"], "%.1f%%" % share,
      ms(host), ms(npu))
PY
)"
[ -n "$SHARE" ] || fail "could not read the CLI's JSON"
[ "$NPU_NS" = "$LINKED" ] || fail "the threads' NPU time $NPU_NS is not the linked device time $LINKED"
[ "$UNLINKED" -gt 0 ] || fail "the sample should have unlinked device time"

start_app "$DB"
wait_state page=graph weight=host "npu_ns=$NPU_NS" "root_ns=$HOST_NS"
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$DB")\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"
ok "the sample opens in host time (the default), its NPU total the CLI's linked device time"

# The weight menu's "All device tasks" (the menu itself: test-window-weight).
act win.weight "'npu'"
wait_state weight=npu "npu_ns=$NPU_NS" "zoom=All threads"
ok "the weight menu shows NPU time (all device tasks)"

xdotool mousemove --window "$WID" $((WIDTH / 2)) $((HEIGHT / 2))
xdotool key ctrl+n
wait_state weight=host
xdotool key ctrl+n
wait_state weight=npu
ok "Ctrl+N switches to host time and back"

# Search: the share is of NPU time, the CLI's.
search "$NEEDLE"
wait_state weight=npu "matched=$SHARE"
xdotool key ctrl+n
wait_state weight=host
[ "$(state_field matched)" != "$SHARE" ] || fail "the host share of '$NEEDLE' equals its NPU share"
xdotool key ctrl+n
wait_state weight=npu "matched=$SHARE"
act win.escape
wait_state matches= weight=npu
ok "the search share of '$NEEDLE' is its NPU time's, $SHARE as the CLI's JSON gives"

# The tooltip of the root ("All threads", the bottom row) shows both
# weights, as the CLI counts them; then a call frame's shows both too.
find_root_y "$WID"
hovered_tooltip () {
  TIP=
  poll 5 tooltip_of "$1"
}
hovered_tooltip "All threads"
TIP=$(tr -d ' ' <<< "$TIP")
case "$TIP" in
  *"Total:$HOST_TEXT"*"NPUtotal:$NPU_TEXT"*"NPUtasks:"*"Ofall:100.0%"*) ;;
  *) fail "the root's tooltip lacks 'Total: $HOST_TEXT' and 'NPU total: $NPU_TEXT': $(state_field tooltip)" ;;
esac
FRAME=
for y in $(seq "$ROOT_Y" -4 40); do
  hover_at "$WID" $((WIDTH / 2)) "$y"
  case "$(state_field hover)" in ""|"All threads"|[0-9]*/[0-9]*) continue ;; esac
  FRAME=$(state_field hover)
  break
done
[ -n "$FRAME" ] || fail "no call frame above the root"
hovered_tooltip "$FRAME"
case "$TIP" in
  *"Total: "*"Self: "*"NPU total: "*"NPU self: "*"NPU tasks: "*) ;;
  *) fail "the tooltip of '$FRAME' lacks a weight: $TIP" ;;
esac
ok "the tooltips show both weights: the root's are the CLI's $HOST_TEXT host, $NPU_TEXT NPU; '$FRAME' too"

# Frames without device time vanish: none under the pointer has 0 ns.
SEEN=0
for y in $(seq "$ROOT_Y" -20 $((ROOT_Y - 160))); do
  for x in $(seq 10 60 $((WIDTH - 10))); do
    hover_at "$WID" "$x" "$y"
    case "$(state_field tooltip)" in
      "") ;;
      *"NPU total: 0 ns"*) fail "a frame without NPU time is drawn: $(state_field tooltip)" ;;
      *) SEEN=$((SEEN + 1)) ;;
    esac
  done
done
[ "$SEEN" -ge 20 ] || fail "only $SEEN frames under the pointer"
ok "in NPU time, every frame under the pointer ($SEEN places) has device time"

# Remembered: a new start shows NPU time at once.
stop_app
start_app "$DB"
wait_state page=graph weight=npu "npu_ns=$NPU_NS"
ok "the NPU weight is remembered across starts"

# The Functions panel follows the weight: its first row is the function
# with the most NPU self time (the window merges address variants).
"$EXE" --export -q --merge-addresses -f json -o "$WORK/merged" "$DB" || fail "the CLI failed"
NPU_TOP=$(python3 - "$WORK/merged/flamegraph.json" <<'PY'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
npu = Counter()
def walk(nodes):
    for n in nodes:
        npu[n["name"]] += n["npu_self_ns"]
        walk(n.get("children", []))
walk([c for t in d["threads"] for c in t.get("children", [])])
(top, a), (_, b) = npu.most_common(2)
assert a > b, "a tie at the top"
print(top)
PY
)
[ -n "$NPU_TOP" ] || fail "could not read the merged JSON"
xdotool key ctrl+shift+f
wait_state functions=1 weight=npu "top=$NPU_TOP"
xdotool key ctrl+n
wait_state functions=1 weight=host "top=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["functions"][0]["name"])' "$WORK/merged/flamegraph.json")"
ok "the Functions panel sorts by NPU self time in NPU time ($NPU_TOP first), by host self time in host time"
xdotool key ctrl+n
wait_state weight=npu
xdotool key ctrl+shift+f
wait_state functions=0

# A comparison weighs the NPU time chosen, as --diff --weight npu does:
# a hovered frame's A and B totals are the CLI diff's.
stop_app
"$EXE" --diff "$DB" "$DB" --export --merge-addresses --weight npu -q -f json -o "$WORK/diff" \
  || fail "the CLI diff failed"
start_app --diff "$DB" "$DB"
wait_state page=graph mode=diff weight=npu
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "↔" | head -1)
[ -n "$WID" ] || fail "no diff window"
DIFF_PATH=
for y in $(seq $((HEIGHT - 60)) -20 $((HEIGHT - 200))); do
  hover_at "$WID" $((WIDTH / 2)) "$y"
  DIFF_PATH=$(state_field hover_path)
  [ -n "$DIFF_PATH" ] && break
done
[ -n "$DIFF_PATH" ] || fail "no frame of the diff under the pointer"
WANT=$(python3 - "$WORK/diff/flamegraph-diff.json" "$DIFF_PATH" <<'PY'
import json, sys
node = {"children": json.load(open(sys.argv[1]))["children"]}
for name in sys.argv[2].split(";"):
    node = next(c for c in node["children"] if c["name"] == name)
print(node["a"]["total_ns"], node["b"]["total_ns"])
PY
)
read -r _ AT _ _ BT _ <<< "$(state_field hover_values)"
[ "$AT $BT" = "$WANT" ] || fail "'$DIFF_PATH' weighs $AT → $BT in the window, $WANT in the CLI's --weight npu diff"
ok "a comparison weighs NPU time, as chosen: '$DIFF_PATH' $AT → $BT, as --diff --weight npu"

# A DB without TASK: the device weights are off, choosing one and Ctrl+N change nothing.
stop_app
NO_NPU=$("$MAKE_DB") || fail "could not build the test DB"
DB_DIR=$(dirname "$NO_NPU")
start_app "$NO_NPU"
wait_state page=graph weight=host npu_ns=
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$NO_NPU")\$" | head -1)
[ -n "$WID" ] || fail "no window for the DB without TASK"
eval "$(xdotool getwindowgeometry --shell "$WID")"
act win.weight "'npu'"
barrier
[ "$(state_field weight)" = host ] || fail "the weight menu switched a DB without NPU data to '$(state_field weight)'"
xdotool mousemove --window "$WID" $((WIDTH / 2)) $((HEIGHT / 2))
xdotool key ctrl+n
barrier
[ "$(state_field weight)" = host ] || fail "a DB without NPU data switched to '$(state_field weight)'"
ok "on a DB without TASK the weight stays host time, even though NPU was chosen before"
echo "1..$N"
