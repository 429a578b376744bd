#!/bin/bash
# SPDX-License-Identifier: MIT
# The stack chart in the window (run under xvfb-run) on the real level1
# sample: win.layout shows it under the flame graph over the profile's
# window, then over the step picked; the view zooms and pans (actions and
# the wheel), a frame clicked in it selects its node in the flame graph,
# the node's rows are outlined and F3 steps through them; with Sync range
# the flame graph is the tree of the visible range (its root total as
# the rows' overlap with the range, computed here with sqlite3), and back
# to the step's once Sync range is off. With AFG_SCREENSHOT_DIR set, the
# window is saved there as screenshot-window-chart.png.
# Usage: test-stack-chart.sh ASCEND_FLAMEGRAPH SAMPLES_DIR
EXE=$1
SAMPLES=$2
. "$(dirname "$0")/e2e-lib.sh"

DB_DIR=$(mktemp -d)
DB=$DB_DIR/chart.db
cp "$SAMPLES/ascend_pytorch_profiler_level1_rank0.db" "$DB" || fail "no sample"

# root_of T0 T1: the tree's root total for [T0, T1): the overlap of each
# thread's outermost used rows (nested as the tree nests them).
root_of () {
  python3 - "$DB" "$1" "$2" <<'PY'
import sqlite3, sys
db, t0, t1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
rows = c.execute("""SELECT globalTid, CAST(startNs AS INTEGER) s, CAST(endNs AS INTEGER) e FROM PYTORCH_API
  WHERE CAST(endNs AS INTEGER) > CAST(startNs AS INTEGER)
    AND type IN (SELECT id FROM ENUM_API_TYPE WHERE lower(name) IN ('op','queue','trace','python_trace'))
    AND name NOT IN (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%')
  ORDER BY globalTid, s, e DESC, rowid""").fetchall()
total, stack, tid = 0, [], None
for g, s, e in rows:
    if g != tid:
        tid, stack = g, []
    if min(e, t1) - max(s, t0) <= 0:
        continue
    while stack and stack[-1] < e:
        stack.pop()
    if not stack:
        total += min(e, t1) - max(s, t0)
    stack.append(e)
print(total)
PY
}

# cli ARGS…: the JSON's root total with ARGS.
cli_root () {
  local out=$WORK/cli
  rm -rf "$out"
  "$EXE" --export -q -f json --merge-addresses -o "$out" "$@" "$DB" || fail "the CLI failed on $*"
  python3 -c 'import json,sys; print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' \
    "$out/flamegraph.json"
}

# click_until X Y KEY=VALUE...: clicks at X Y until the state holds the
# fields, three tries. A tooltip of the box before, shown under the
# pointer, takes a click meant for the box below it: the pointer leaves
# the boxes (the lane names give no tooltip) until no tooltip is shown.
no_tooltip () { ! tooltip_window; }
click_until () {
  local x=$1 y=$2
  shift 2
  for _ in 1 2 3; do
    hover_at "$WID" 20 "$y"
    poll 5 no_tooltip || fail "a tooltip stays on screen"
    xdotool mousemove --window "$WID" "$x" "$y" click 1
    poll 3 state_has "$@" && return 0
  done
  fail "a click never reached '$*' (last: $(last_state | tr '\t' ' '))"
}

view_len () { local r; r=$(state_field chart); echo $(( ${r#*-} - ${r%-*} )); }

# The step's range, as the chart's field writes a range.
STEP=$(sqlite3 "$DB" "SELECT id || ' ' || startNs || '-' || endNs FROM STEP_TIME")
read -r STEP_ID STEP_RANGE <<< "$STEP"
[ -n "$STEP_RANGE" ] || fail "the sample has no step"
STEP_START=${STEP_RANGE%-*}
STEP_LEN=$(( ${STEP_RANGE#*-} - STEP_START ))
ROOT=$(cli_root)
STEP_ROOT=$(cli_root --steps "$STEP_ID")

start_app "$DB"
wait_state page=graph layout=flame chart=
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "chart.db" | head -1)
[ -n "$WID" ] || fail "no window"
ok "the flame graph alone: no chart, nothing read for it"

# The profile's window of a DB with steps is its steps': the scope.
act win.layout "'both'"
wait_state page=graph layout=both "chart=$STEP_RANGE"
[ "$(state_field chart_tasks)" = kept ] || fail "the chart read the DB again: chart_tasks=$(state_field chart_tasks)"
barrier
[ "$(state_field chart_boxes)" -gt 100 ] || fail "the chart drew $(state_field chart_boxes) boxes"
case "$(state_field chart_lanes)" in
  "main · "*"/"*"|NPU 0 · stream "*"|Collectives") ;;
  *) fail "lanes: $(state_field chart_lanes)" ;;
esac
ok "win.layout both: the chart under the flame graph, over the step's window; threads named by role"

act win.chart-zoom 4.0
barrier
LEN=$(view_len)
[ "$LEN" -ge $((STEP_LEN / 4 - 1)) ] && [ "$LEN" -le $((STEP_LEN / 4 + 1)) ] || fail "zoom x4 gave $LEN ns of $STEP_LEN"
START=$(state_field chart); START=${START%-*}
act win.chart-pan 0.5
barrier
NEW=$(state_field chart); NEW=${NEW%-*}
[ "$NEW" -eq $((START + LEN / 2)) ] || fail "pan by half moved from $START to $NEW, not by $((LEN / 2))"
[ "$(view_len)" -eq "$LEN" ] || fail "pan changed the length"
ok "win.chart-zoom and win.chart-pan: a quarter of the step, half a view later"

act win.chart-home
wait_state "chart=$STEP_RANGE"
act win.layout "'chart'"
wait_state layout=chart
barrier
# A frame of the main thread under the pointer: scan down the chart.
NAME=
for y in $(seq 120 6 500); do
  hover_at "$WID" 400 "$y"
  NAME=$(state_field chart_hover)
  [ -n "$NAME" ] && break
done
[ -n "$NAME" ] || fail "no box under the pointer in the chart"
Y=$y
ok "hovering a box names it ($NAME)"

act win.chart-home
barrier
# A frame called more than once: down the main thread's stack.
ROWS=0
for xy in $(for x in 300 600 900; do for y in $(seq $((Y + 48)) 16 560); do echo "$x,$y"; done; done); do
  hover_at "$WID" "${xy%,*}" "${xy#*,}"
  NAME=$(state_field chart_hover)
  [ -n "$NAME" ] || continue
  click_until "${xy%,*}" "${xy#*,}" "chart_selected=$NAME" "selected=$NAME"
  # Two clicks in a row may make a double-click, which zooms.
  act win.chart-home
  wait_state "chart=$STEP_RANGE"
  INSTANCES=$(state_field chart_instances)
  ROWS=${INSTANCES#*/}
  [ "${INSTANCES%/*}" = 0 ] && [ "$ROWS" -ge 1 ] || fail "the picked frame's rows: '$INSTANCES'"
  [ "$ROWS" -ge 2 ] && break
done
[ "$ROWS" -ge 2 ] || fail "no frame with two rows found"
ok "a frame clicked in the chart is selected in the flame graph ($NAME, $ROWS rows outlined)"

xdotool key F3
wait_state "chart_instances=1/$ROWS"
xdotool key F3
wait_state "chart_instances=2/$ROWS"
xdotool key shift+F3
wait_state "chart_instances=1/$ROWS"
ok "F3 and Shift+F3 step through the node's rows"

# Rows are untransformed frames; with a transform each is found where the
# transform puts it. Focused on NAME, every outermost NAME row is a top
# frame: a click on the box selects it, and the rows outlined are the
# calls of that top frame in the step, as the CLI's JSON counts them.
case $NAME in *"'"*|/*) fail "the test cannot name '$NAME' in a transform" ;; esac
act win.add-transform "('focus-function', '$NAME')"
wait_state "transforms=focus-function $NAME"
act win.chart-home
wait_state "chart=$STEP_RANGE"
# F3 scrolled the chart: NAME's box is found again.
for xy in $(for x in 300 600 900; do for y in $(seq $((Y + 48)) 16 560); do echo "$x,$y"; done; done); do
  hover_at "$WID" "${xy%,*}" "${xy#*,}"
  [ "$(state_field chart_hover)" = "$NAME" ] && break
done
[ "$(state_field chart_hover)" = "$NAME" ] || fail "no box of $NAME in the chart after the focus"
# Under a transform the rows are judged in a worker: held there, none is
# outlined and the window still answers; released, they are.
send "hold afg-outline"
click_until "${xy%,*}" "${xy#*,}" "chart_selected=$NAME" "selected=$NAME"
barrier
has_fields "$(last_state)" chart_outlining=1 chart_instances= || fail "the rows were not being found in a worker"
send "release afg-outline"
act win.chart-home
wait_state "chart=$STEP_RANGE" chart_outlining=0
FOCUSED=$(state_field chart_instances)
[ -n "$FOCUSED" ] || fail "no rows outlined for $NAME after the focus"
"$EXE" --export -q -f json --merge-addresses --focus-function "$NAME" --steps "$STEP_ID" -o "$WORK/focus" "$DB" \
  || fail "the CLI failed to focus on $NAME"
python3 - "$WORK/focus/flamegraph.json" "$NAME" "${FOCUSED#*/}" <<'PY' || fail "$FOCUSED rows outlined, not the calls of a top frame $NAME in the JSON"
import json, sys
doc, name, rows = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
calls = [c["calls"] for t in doc["threads"] for c in t.get("children", []) if c["name"] == name]
sys.exit(0 if rows in calls else 1)
PY
[ "${FOCUSED%/*}" = 0 ] || fail "the picked frame's rows after the focus: '$FOCUSED'"
act win.pop-transform
wait_state transforms=
ok "focused on $NAME, a click on its box selects the top frame, its ${FOCUSED#*/} rows outlined (the JSON's calls)"

# The flame graph's search dims the chart's boxes whose names lack it:
# some for NAME, every one for a name nothing has, none once cleared.
act win.chart-home
wait_state "chart=$STEP_RANGE"
# The chart's counts are those of its last frame: a barrier draws it.
dimmed_some () {
  local boxes dimmed
  barrier
  boxes=$(state_field chart_boxes) dimmed=$(state_field chart_dimmed)
  [ -n "$dimmed" ] && [ "$dimmed" -gt 0 ] && [ "$dimmed" -lt "$boxes" ]
}
search "$NAME"
poll 30 dimmed_some || fail "searching '$NAME' dimmed $(state_field chart_dimmed) of $(state_field chart_boxes) boxes"
search "no-such-frame-name"
dimmed_all () { barrier; [ "$(state_field chart_dimmed)" = "$(state_field chart_boxes)" ]; }
poll 30 dimmed_all || fail "a search that names nothing dimmed $(state_field chart_dimmed) of $(state_field chart_boxes) boxes"
search ""
dimmed_none () { barrier; state_has chart_dimmed=0 matches=; }
poll 30 dimmed_none || fail "the search cleared left $(state_field chart_dimmed) boxes dimmed"
ok "the search dims the chart's boxes it does not name: some for '$NAME', all for a name none has, none once cleared"

act win.chart-home
wait_state "chart=$STEP_RANGE"
hover_at "$WID" 400 "$Y"
# The wheel zooms around the pointer; a drag pans.
xdotool click 4
poll 10 bash -c '[ "$(state_field chart)" != "$0" ]' "$STEP_RANGE" 2>/dev/null || true
barrier
[ "$(view_len)" -lt "$STEP_LEN" ] || fail "the wheel did not zoom in ($(state_field chart))"
BEFORE=$(state_field chart)
xdotool mousemove --window "$WID" 400 "$Y" mousedown 1 mousemove --window "$WID" 300 "$Y" mouseup 1
barrier
AFTER=$(state_field chart)
[ "${AFTER%-*}" -gt "${BEFORE%-*}" ] || fail "a drag left did not move the view later ($BEFORE -> $AFTER)"
ok "the wheel zooms in, a drag pans"


act win.chart-home
wait_state "chart=$STEP_RANGE"
act win.chart-sync
wait_state chart_sync=1 "root_ns=$STEP_ROOT"
ok "Sync range over the step: the tree of --steps $STEP_ID"

act win.chart-zoom 3.0
barrier
RANGE=$(state_field chart)
[ "$RANGE" != "$STEP_RANGE" ] || fail "the zoom did not narrow the view"
EXPECTED=$(root_of "${RANGE%-*}" "${RANGE#*-}")
wait_state "chart=$RANGE" "root_ns=$EXPECTED"
[ "$EXPECTED" -lt "$STEP_ROOT" ] || fail "the visible third holds all the step's time"
ok "Sync range over a third of the step: its rows' time clipped to it ($EXPECTED ns)"

# While NPU idle with Sync range: the idle instants within the view.
# Switched on, it keeps the view the user zoomed to: the tree is the
# idle instants of the step's first third, fewer than its rows' time
# but some (the sample's NPU waits for the host there). Home shows
# the idle instants' span: the tree of --npu-idle. A zoom on the first
# third (where the sample's NPU waits for the host) keeps the idle
# instants, fewer than the rows' time there; Home gives the whole idle
# tree back, and so does Sync range off; zoomed again, Sync range on
# gives the view's idle tree as before; While NPU idle off keeps the
# view and gives its rows' time.
IDLE_ROOT=$(cli_root --npu-idle)
act win.chart-pan -1.0
barrier
FIRST=$(state_field chart)
FIRST_PLAIN=$(root_of "${FIRST%-*}" "${FIRST#*-}")
wait_state chart_sync=1 "chart=$FIRST" "root_ns=$FIRST_PLAIN" chart_syncing=0
act win.npu-idle
idle_in_first () {
  state_has idle=1 chart_sync=1 "chart=$FIRST" chart_syncing=0 && [ "$(state_field root_ns)" -gt 0 ] \
    && [ "$(state_field root_ns)" -lt "$FIRST_PLAIN" ] && [ "$(state_field root_ns)" != "$IDLE_ROOT" ]
}
poll 30 idle_in_first \
  || fail "While NPU idle on a zoomed view: not the idle tree of $FIRST (last: $(last_state | tr '\t' ' '))"
ok "While NPU idle switched on keeps the zoomed view; the tree is its idle instants ($(state_field root_ns) of $FIRST_PLAIN ns)"
act win.chart-home
wait_state idle=1 chart_sync=1 "root_ns=$IDLE_ROOT"
HOME=$(state_field chart)
act win.chart-zoom 3.0
act win.chart-pan -1.0
barrier
VIEW=$(state_field chart)
PLAIN=$(root_of "${VIEW%-*}" "${VIEW#*-}")
idle_in_view () {
  state_has idle=1 "chart=$VIEW" && [ "$(state_field root_ns)" -lt "$PLAIN" ] && [ "$(state_field root_ns)" -gt 0 ]
}
poll 30 idle_in_view || fail "no idle tree of the view $VIEW under its rows' $PLAIN ns (last: $(last_state | tr '\t' ' '))"
IDLE_VIEW=$(state_field root_ns)
act win.chart-home
wait_state idle=1 chart_sync=1 "chart=$HOME" "root_ns=$IDLE_ROOT"
ok "While NPU idle and Sync range: the idle instants of the view ($IDLE_VIEW of its $PLAIN ns), all of them over the span"
act win.chart-sync
wait_state chart_sync=0 idle=1 "chart=$HOME" "root_ns=$IDLE_ROOT"
act win.chart-zoom 3.0
act win.chart-pan -1.0
wait_state chart_sync=0 "chart=$VIEW"
# On and off at once: the range's tree being built is dropped, the whole
# idle tree and its span stay.
act win.chart-sync
act win.chart-sync
wait_state chart_sync=0 chart_syncing=0
barrier
has_fields "$(last_state)" idle=1 "chart=$VIEW" "root_ns=$IDLE_ROOT" \
  || fail "Sync range on and off left another tree (last: $(last_state | tr '\t' ' '))"
act win.chart-home
wait_state chart_sync=0 "chart=$HOME" "root_ns=$IDLE_ROOT"
act win.chart-zoom 3.0
act win.chart-pan -1.0
wait_state chart_sync=0 "chart=$VIEW"
act win.chart-sync
wait_state chart_sync=1 idle=1 "chart=$VIEW" "root_ns=$IDLE_VIEW" chart_syncing=0
act win.npu-idle
wait_state chart_sync=1 idle=0 "chart=$VIEW" "root_ns=$PLAIN" chart_syncing=0
act win.chart-home
wait_state chart_sync=1 idle=0 "chart=$STEP_RANGE" "root_ns=$STEP_ROOT"
ok "the same idle tree of the view whichever was switched on first; While NPU idle off keeps the view, its rows' time"

act win.chart-sync
wait_state chart_sync=0 "root_ns=$ROOT"
ok "Sync range off: the whole profile's tree again"

if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
  xdotool windowsize --sync "$WID" 1280 760
  act win.chart-home
  barrier
  # The backward pass and the allreduce after it, with the gaps between.
  act win.chart-zoom 2.5
  act win.chart-pan -0.45
  barrier
  hover_at "$WID" 5 5
  import -window "$WID" "$AFG_SCREENSHOT_DIR/screenshot-window-chart.png"
fi
stop_app

# Neither steps nor device tasks (a host-only profile): the scope is the
# host rows' span, and Sync range gives the tree of what is on screen.
HOST=$DB_DIR/host.db
cp "$DB" "$HOST" && sqlite3 "$HOST" "DELETE FROM PYTORCH_API WHERE name IN
  (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%'); DROP TABLE IF EXISTS STEP_TIME;
  DROP TABLE TASK; DROP TABLE IF EXISTS COMMUNICATION_OP" || fail "cannot make a host-only DB"
SPAN=$(python3 - "$HOST" <<'PY'
import sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print("%d-%d" % c.execute("""SELECT min(CAST(startNs AS INTEGER)), max(CAST(endNs AS INTEGER)) FROM PYTORCH_API
  WHERE CAST(endNs AS INTEGER) > CAST(startNs AS INTEGER)
    AND type IN (SELECT id FROM ENUM_API_TYPE WHERE lower(name) IN ('op','queue','trace','python_trace'))""").fetchone())
PY
)
HOST_ROOT=$("$EXE" --export -q -f json -o "$DB_DIR/host" "$HOST" && python3 -c 'import json, sys
print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' "$DB_DIR/host/flamegraph.json")
start_app "$HOST"
wait_state page=graph "root_ns=$HOST_ROOT"
act win.layout "'both'"
wait_state page=graph layout=both "chart=$SPAN"
barrier
[ "$(state_field chart_boxes)" -gt 0 ] || fail "the host-only chart drew no box"
act win.chart-sync
wait_state chart_sync=1 "root_ns=$HOST_ROOT"
ok "without steps or device tasks the chart spans the host rows ($SPAN), and Sync range keeps their tree"
stop_app
