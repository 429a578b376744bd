#!/bin/bash
# SPDX-License-Identifier: MIT
# The flame view's tooltip (under xvfb-run): it follows the frame under
# the pointer from frame to frame, placed at the pointer, and stays on
# the screen at the window's right edge. GTK shows a tooltip as a window
# of its own, named after the application; its geometry is the X
# server's.
# Usage: test-tooltip-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

DB=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level1_rank0.db
SCREEN_W=$(xdotool getdisplaygeometry | cut -d' ' -f1)

# tip_near X: a tooltip window is mapped as tip_at X wants, within a few
# seconds; a pointer that goes on moving (one pixel to and fro, inside
# the frame) is what makes GTK show the next frame's tooltip.
tip_box () {
  local tip WINDOW X Y WIDTH HEIGHT SCREEN
  for tip in $(xdotool search --onlyvisible --name "^Ascend Flame Graph\$" 2>/dev/null); do
    eval "$(xdotool getwindowgeometry --shell "$tip")"
    [ "$HEIGHT" -ge 40 ] || continue
    TIP_X=$X TIP_W=$WIDTH
    return 0
  done
  return 1
}
# tip_at X: on the screen, and (for an X) centred on the pointer, or as
# near as the screen's edges let it be.
tip_at () {
  local want
  tip_box || return 1
  [ "$TIP_X" -ge 0 ] && [ $((TIP_X + TIP_W)) -le "$SCREEN_W" ] || return 1
  [ -n "$1" ] || return 0
  want=$(( $1 < TIP_W / 2 ? TIP_W / 2 : $1 > SCREEN_W - TIP_W / 2 ? SCREEN_W - TIP_W / 2 : $1 ))
  [ $(( (TIP_X + TIP_W / 2 - want) * (TIP_X + TIP_W / 2 - want) )) -le 1600 ]
}
tip_near () {
  for _ in $(seq 10); do
    poll 1 tip_at "$1" && return 0
    xdotool mousemove_relative -- 1 0
    xdotool mousemove_relative -- -1 0
  done
  return 1
}

start_app "$DB"
wait_state page=graph
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$DB")\$" | head -1)
[ -n "$WID" ] || fail "no window"
xdotool windowmove --sync "$WID" 0 0
eval "$(xdotool getwindowgeometry --shell "$WID")"

# Along the rows, at each frame the pointer meets (a frame as wide as
# the row has one tooltip wherever the pointer is on it): the tooltip goes
# with the pointer.
MET=0
for y in $(seq $((HEIGHT - 60)) -20 $((HEIGHT - 300))); do
  LAST=
  [ "$MET" -ge 6 ] && break
  for x in $(seq 100 100 $((WIDTH - 100))); do
    hover_at "$WID" "$x" "$y"
    HOVER=$(state_field hover)
    [ -n "$HOVER" ] && [ "$HOVER" != "$LAST" ] || continue
    LAST=$HOVER
    tip_near "$x" || fail "the tooltip of '$HOVER' is not at the pointer (x $x): the last at ${TIP_X:-?}+${TIP_W:-?}"
    MET=$((MET + 1))
  done
done
[ "$MET" -ge 4 ] || fail "only $MET frames met"
ok "moving over $MET frames, each frame's tooltip shows at the pointer, not where the first one was"

# At the right edge (the graph ends a scrollbar short of the window's):
# every pixel of the tooltip on the screen.
RIGHT=0
for y in $(seq $((HEIGHT - 20)) -20 $((HEIGHT - 400))); do
  hover_at "$WID" $((WIDTH - 20)) "$y"
  [ -n "$(state_field hover)" ] || continue
  tip_near $((WIDTH - 20)) || fail "the tooltip of '$(state_field hover)' at the right edge is not on the screen by the pointer: ${TIP_X:-?}+${TIP_W:-?} of $SCREEN_W"
  RIGHT=$((RIGHT + 1))
done
[ "$RIGHT" -ge 2 ] || fail "only $RIGHT frames at the right edge"
ok "at the right edge the tooltips of $RIGHT frames stay on the screen"
stop_app
echo "1..$N"
