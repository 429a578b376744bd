#!/bin/bash
# SPDX-License-Identifier: MIT
# win.layout (run under xvfb-run) on the real level1 sample, the app's
# criticals fatal: flame, both, chart, both, flame, each in the state
# line, the chart's range there only while it is shown. Where the
# paned's handle was in "both", a drag in the chart alone pans it (GTK
# 4.8's hidden handle takes no press), and back in "both" the handle
# still moves. The layout is remembered: the app starts again in "both".
# Usage: test-layout-window.sh ASCEND_FLAMEGRAPH SAMPLES_DIR
EXE=$1
SAMPLES=$2
. "$(dirname "$0")/e2e-lib.sh"

export G_DEBUG=${G_DEBUG:+$G_DEBUG,}fatal-criticals
keyfile_settings
DB_DIR=$(mktemp -d)
DB=$DB_DIR/layout.db
cp "$SAMPLES/ascend_pytorch_profiler_level1_rank0.db" "$DB" || fail "no sample"
STEP_RANGE=$(sqlite3 "$DB" "SELECT startNs || '-' || endNs FROM STEP_TIME")
[ -n "$STEP_RANGE" ] || fail "the sample has no step"

no_criticals () {
  ! grep -q CRITICAL "$LOG" || fail "a critical: $(grep -m1 CRITICAL "$LOG")"
}

# layout NAME KEY=VALUE...: win.layout NAME, the state then holding it
# and the fields, the app alive (a critical aborts it) and silent.
state_or_gone () { state_has "$@" || app_gone; }
layout () {
  local name=$1
  shift
  act win.layout "'$name'"
  poll 30 state_or_gone "layout=$name" "$@" \
    || fail "the state never reached 'layout=$name $*' (last: $(last_state | tr '\t' ' '))"
  ! app_gone || fail "the app died on layout $name"
  barrier
  no_criticals
}

# root_bottom: ROOT, the lowest y (down the middle) of the flame's root
# row, which ends where the chart's half starts.
root_bottom () {
  local y seen=
  ROOT=
  for y in $(seq 120 2 700); do
    hover_at "$WID" 600 "$y"
    if [ "$(state_field hover)" = "All threads" ]; then
      seen=1
      ROOT=$y
    elif [ -n "$seen" ]; then
      return 0
    fi
  done
  [ -n "$ROOT" ] || fail "no root frame under the pointer in the flame half"
}

# drag_at Y DX: a press at x=400, Y, moved DX across, released.
drag_at () {
  xdotool mousemove --window "$WID" 400 "$1" mousedown 1 mousemove --window "$WID" $((400 + $2 / 2)) "$1" \
    mousemove --window "$WID" $((400 + $2)) "$1" mouseup 1
  barrier
}

start_app "$DB"
wait_state page=graph layout=flame chart=
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "layout.db" | head -1)
[ -n "$WID" ] || fail "no window"
no_criticals
ok "the flame graph alone"

layout both "chart=$STEP_RANGE"
ok "both: the chart under the flame graph"
root_bottom
BOTH_ROOT=$ROOT

layout chart "chart=$STEP_RANGE"
ok "chart: the chart alone"

act win.chart-zoom 4.0
barrier
# The handle's strip in "both": just under the root row, 20 px down.
D=40
for y in $(seq $((ROOT + 1)) 3 $((ROOT + 22))); do
  D=$((-D))
  BEFORE=$(state_field chart)
  drag_at "$y" "$D"
  [ "$(state_field chart)" != "$BEFORE" ] || fail "a drag at y=$y (the hidden handle's place) did not pan the chart"
done
ok "chart: drags where the handle was pan the chart"
act win.chart-home
wait_state "chart=$STEP_RANGE"

layout both "chart=$STEP_RANGE"
root_bottom
[ "$ROOT" -ge $((BOTH_ROOT - 2)) ] && [ "$ROOT" -le $((BOTH_ROOT + 2)) ] \
  || fail "both again: the flame half ends at $ROOT, not at $BOTH_ROOT as before"
# The handle dragged 60 px down: the flame half (its root row at its
# bottom) grows by about as much (GTK's drag threshold takes a few).
xdotool mousemove --window "$WID" 600 $((ROOT + 4)) mousedown 1 mousemove --window "$WID" 600 $((ROOT + 34)) \
  mousemove --window "$WID" 600 $((ROOT + 64)) mouseup 1
barrier
root_bottom
[ "$ROOT" -ge $((BOTH_ROOT + 40)) ] || fail "the handle did not move: the flame half ends at $ROOT, was $BOTH_ROOT"
ok "both again: half each, the handle moves"

layout flame chart=
ok "flame: the flame graph alone again, no chart"

layout both "chart=$STEP_RANGE"
stop_app
no_criticals
start_app "$DB"
wait_state page=graph layout=both "chart=$STEP_RANGE"
barrier
no_criticals
ok "the layout is remembered: the app starts in both"
stop_app
