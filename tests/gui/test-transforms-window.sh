#!/bin/bash
# SPDX-License-Identifier: MIT
# Call-tree transforms in the window (run under xvfb-run): a transform
# named through win.add-transform, one from a frame's context menu, one
# from the keys (Alt+M on the selected frame) give the trees the CLI
# exports with the same list in the same order; the bar's × (its action)
# takes one out of the middle, Ctrl+Z the last, Esc the last once the
# search and the zoom are gone; the list is kept for the file while the
# window shows another.
# Usage: test-transforms-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

A=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level1_rank0.db

# cli ARGS…: "ROOT_NS NODES" of the CLI's JSON of A with ARGS, counted as
# the window counts (root, threads, frames).
cli () {
  local out=$WORK/cli
  rm -rf "$out"
  "$EXE" --export -q -f json --merge-addresses -o "$out" "$@" "$A" || fail "the CLI failed on $*"
  python3 - "$out/flamegraph.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def count(nodes):
    return sum(1 + count(n.get("children", [])) for n in nodes)
threads = d["threads"]
print(sum(t["total_ns"] for t in threads), 1 + len(threads) + count([c for t in threads for c in t.get("children", [])]))
PY
}

# state_has_prefix KEY=PREFIX: the newest state line's KEY starts with PREFIX.
state_has_prefix () {
  local key=${1%%=*} prefix=${1#*=}
  case "$(state_field "$key")" in "$prefix"*) return 0 ;; esac
  return 1
}

# shows ROOT NODES TRANSFORMS: the window shows that tree and that list.
shows () {
  wait_state page=graph "root_ns=$1" "nodes=$2" "transforms=$3"
}

start_app "$A"
wait_state page=graph transforms=
read -r ROOT NODES <<< "$(cli)"
shows "$ROOT" "$NODES" ""
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$A")\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"

act win.add-transform "('merge-function', '/^aclnn/')"
read -r R1 N1 <<< "$(cli --merge-function '/^aclnn/')"
[ "$N1" -lt "$NODES" ] || fail "merging aclnn* frames should leave fewer frames ($N1 vs $NODES)"
shows "$R1" "$N1" "merge-function /^aclnn/"
ok "merge-function /^aclnn/: the CLI's tree ($N1 nodes)"

act win.add-transform "('drop-function', 'aten::to')"
read -r R2 N2 <<< "$(cli --merge-function '/^aclnn/' --drop-function aten::to)"
[ "$R2" -lt "$R1" ] || fail "dropping aten::to should take time away"
shows "$R2" "$N2" "merge-function /^aclnn/ > drop-function aten::to"
ok "then drop-function aten::to: the CLI's tree of both in that order"

# frame_row: sets y to the lowest height at x 300 with a frame above the
# threads, HOVER to its name; the pointer is left there.
frame_row () {
  for y in $(seq $((HEIGHT - 60)) -20 120); do
    hover_at "$WID" 300 "$y"
    HOVER=$(state_field hover)
    case "$HOVER" in ""|*/*|"All threads") ;; *) return 0 ;; esac
  done
  fail "no frame under the pointer at x 300"
}
# A frame's context menu: its first item focuses on the frame's subtree.
# The frame: the widest one in the first thread's row above the thread.
frame_row
menu_first_item "$WID" 300 "$y" page=graph
LIST=$(state_field transforms)
case "$LIST" in "merge-function /^aclnn/ > drop-function aten::to > focus-subtree "*) ;;
  *) fail "the menu added no focus-subtree: '$LIST'" ;; esac
case "$LIST" in *"$HOVER") ;; *) fail "the focus-subtree does not end at $HOVER: '$LIST'" ;; esac
SUBTREE=${LIST##*> focus-subtree }
read -r R6 N6 <<< "$(cli --merge-function '/^aclnn/' --drop-function aten::to --focus-subtree "$SUBTREE")"
shows "$R6" "$N6" "$LIST"
ok "the context menu's first item focuses on the frame's subtree ($HOVER)"

# Ctrl+Z takes it out again; the × of the first crumb takes out the merge.
xdotool key ctrl+z
shows "$R2" "$N2" "merge-function /^aclnn/ > drop-function aten::to"
act win.remove-transform "uint32 0"
read -r R3 N3 <<< "$(cli --drop-function aten::to)"
shows "$R3" "$N3" "drop-function aten::to"
ok "Ctrl+Z takes out the last transform, the × of the first takes it out of the middle"

# Alt+M on the selected frame merges its function.
act win.pop-transform
shows "$ROOT" "$NODES" ""
frame_row
SELECTED=$HOVER
click
[ "$(state_field selected)" = "$SELECTED" ] || fail "the click selected '$(state_field selected)', not $SELECTED"
xdotool key alt+m
wait_state "transforms=merge-function $SELECTED"
read -r R4 N4 <<< "$(cli --merge-function "$SELECTED")"
shows "$R4" "$N4" "merge-function $SELECTED"
ok "Alt+M merges the selected frame's function ($SELECTED), as --merge-function does"

# The other keys on the same frame (selected again: a new tree is shown
# without a selection): Alt+F, Alt+Shift+F, Alt+D, Alt+R.
select_frame () {
  hover_at "$WID" 300 "$y"
  click
  [ "$(state_field selected)" = "$SELECTED" ] || fail "the click did not select $SELECTED again"
}
for pair in "alt+f:focus-subtree" "alt+shift+f:focus-function $SELECTED" "alt+d:drop-function $SELECTED" \
            "alt+r:collapse-recursion $SELECTED"; do
  xdotool key ctrl+z
  wait_state "transforms="
  select_frame
  xdotool key "${pair%%:*}"
  poll 10 state_has_prefix "transforms=${pair#*:}" || fail "${pair%%:*} added no ${pair#*:}: '$(state_field transforms)'"
done
xdotool key ctrl+z
wait_state "transforms="
select_frame
xdotool key alt+m
wait_state "transforms=merge-function $SELECTED"
ok "Alt+F, Alt+Shift+F, Alt+D and Alt+R add their transforms for the selected frame"

# Esc: the search first, then the transform.
search aten
# The search has taken effect once it counts its matches.
poll 10 has_matches || fail "the search found nothing"
wait_state "transforms=merge-function $SELECTED"
xdotool key Escape
barrier
[ "$(state_field transforms)" = "merge-function $SELECTED" ] || fail "Esc took out the transform before the search"
xdotool key Escape
shows "$ROOT" "$NODES" ""
ok "Esc clears the search first, then takes out the last transform"

act win.add-transform "('focus-function', 'main.py(375): train')"
read -r R5 N5 <<< "$(cli --focus-function 'main.py(375): train')"
shows "$R5" "$N5" "focus-function main.py(375): train"
ok "focus-function: the CLI's tree"

# A row of the Functions panel offers the transforms of its function:
# its menu's first item focuses on it.
act win.pop-transform
shows "$ROOT" "$NODES" ""
act win.toggle-functions
wait_state functions=1
for y in $(seq 120 12 $((HEIGHT - 80))); do
  xdotool mousemove --window "$WID" $((WIDTH - 150)) "$y" click 1
  barrier
  ROW_FUNCTION=$(state_field function)
  [ -n "$ROW_FUNCTION" ] && break
done
[ -n "$ROW_FUNCTION" ] || fail "no row of the Functions panel took a click"
menu_first_item "$WID" $((WIDTH - 150)) "$y" "transforms=focus-function $ROW_FUNCTION"
read -r R7 N7 <<< "$(cli --focus-function "$ROW_FUNCTION")"
shows "$R7" "$N7" "focus-function $ROW_FUNCTION"
ok "a Functions panel row's menu focuses on its function ($ROW_FUNCTION)"

# Kept while the window is open, not past it.
stop_app
start_app "$A"
shows "$ROOT" "$NODES" ""
ok "a new window starts without transforms"
stop_app
