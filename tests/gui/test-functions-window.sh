#!/bin/bash
# SPDX-License-Identifier: MIT
# The Functions panel under the real pointer and keys (run under
# xvfb-run), on the real level0 sample: Ctrl+Shift+F opens it, clicks on
# column headers sort it, a click on a row picks a function, the search
# filters it, a double-click on a frame picks the frame's function, a
# step scope rebuilds it. Every value the state line reports (rows, top
# row, highlighted frames, both sandwich halves, histogram size) must be
# what the CLI's JSON of the same DB and scope says (with
# --merge-addresses, the window's default).
# Usage: test-functions-window.sh ASCEND_FLAMEGRAPH SAMPLE_DB
EXE=$1
SAMPLE=$2
. "$(dirname "$0")/e2e-lib.sh"
EXPECT=$(dirname "$0")/functions-expect.py

DB_DIR=$(mktemp -d)
DB=$DB_DIR/level0.db
cp "$SAMPLE" "$DB" || fail "no sample at $SAMPLE"

# cli_json [A-B]: the CLI's JSON for the scope (none: the whole profile),
# address variants merged as the window merges them by default.
cli_json () {
  local out=$WORK/cli-${1:-all}
  mkdir -p "$out"
  "$EXE" --export -q --merge-addresses -f json -o "$out" ${1:+--steps "$1"} "$DB" || fail "the CLI failed for '${1:-}'"
  echo "$out/flamegraph.json"
}
ALL=$(cli_json)
N_FUNCTIONS=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["functions"]))' "$ALL")
FIRST=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["functions"][0]["name"])' "$ALL")

# expect_function JSON NAME: the panel picked NAME, lit its frames and
# shows its sandwich as the JSON's tree has them.
expect_function () {
  local highlighted callers callees calls
  IFS=$TAB read -r highlighted callers callees calls <<< "$(python3 "$EXPECT" "$1" function "$2")"
  wait_state "function=$2" "highlighted=$highlighted" "callers=$callers" "callees=$callees"
  EXPECTED_CALLS=$calls
}

start_app "$DB"
wait_state page=graph merged=1 durations=1 functions=0 "root_ns=$(python3 -c 'import json,sys; print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' "$ALL")"
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^level0.db\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"

xdotool key ctrl+shift+f
wait_state functions=1 "rows=$N_FUNCTIONS" "top=$FIRST" function=
ok "Ctrl+Shift+F opens the panel: $N_FUNCTIONS rows, the JSON's functions, by self time"

# The header row: the first row below the strip whose click re-sorts.
# Calls and Total by their distance from the right (fixed widths:
# Calls 64, Self 84, Total 84, % 64 px). The second click of each pair
# is 20 px from the first, farther than GTK's double-click distance: two
# clicks, not a double-click.
HEADER_Y=
for y in $(seq 90 2 140); do
  xdotool mousemove --window "$WID" $((WIDTH - 270)) "$y" click 1
  barrier
  [ "$(state_field top)" != "$FIRST" ] && HEADER_Y=$y && break
done
[ -n "$HEADER_Y" ] || fail "no column header to click"
xdotool mousemove --window "$WID" $((WIDTH - 250)) "$HEADER_Y" click 1
wait_state "top=$(python3 "$EXPECT" "$ALL" top calls)"
ok "two clicks on Calls sort by calls, most first (the JSON's most-called function)"

xdotool mousemove --window "$WID" $((WIDTH - 110)) "$HEADER_Y" click 1
barrier
xdotool mousemove --window "$WID" $((WIDTH - 90)) "$HEADER_Y" click 1
TOP=$(python3 "$EXPECT" "$ALL" top total)
wait_state "top=$TOP"
ok "two clicks on Total sort by total time: $TOP first"

xdotool mousemove --window "$WID" $((WIDTH - 300)) $((HEADER_Y + 36)) click 1
expect_function "$ALL" "$TOP"
wait_state "histogram=$EXPECTED_CALLS"
ok "a click on the first row picks $TOP: its frames lit, its sandwich and its $EXPECTED_CALLS calls' histogram as in the JSON"

search aten::
wait_state "rows=$(python3 "$EXPECT" "$ALL" rows aten::)" "function=$TOP"
act win.escape
wait_state "rows=$N_FUNCTIONS"
ok "the search entry filters the table (names holding aten::), Escape shows every row again"

# Found by the search, picked, the search cleared: the pick stays. With
# AFG_SCREENSHOT_DIR set, docs/functions.md's picture of the sandwich.
search aten::copy_
wait_state "rows=$(python3 "$EXPECT" "$ALL" rows aten::copy_)"
xdotool mousemove --window "$WID" $((WIDTH - 300)) $((HEADER_Y + 36)) click 1
expect_function "$ALL" aten::copy_
act win.escape
wait_state "rows=$N_FUNCTIONS" function=aten::copy_ "histogram=$EXPECTED_CALLS"
if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
  # The picture shows the tooltip of the frame under the pointer.
  hover_at "$WID" $((WIDTH - 200)) $((HEIGHT - 60))
  poll 5 tooltip_window || fail "no tooltip for the screenshot"
  import -window root -crop "${WIDTH}x${HEIGHT}+0+0" +repage "$AFG_SCREENSHOT_DIR/screenshot-window-functions.png"
fi
ok "aten::copy_, found by the search and picked, stays picked when the search is cleared"

# A double-click on a top-level frame picks its function. The keys pick
# the frame (the root, its widest thread, that thread's widest frame:
# Escape gave the graph the keys), the app says where it is drawn, and
# the pointer double-clicks there.
xdotool key Down
wait_state "selected=All threads"
xdotool key Up
barrier
THREAD=$(state_field selected)
xdotool key Up
poll 10 eval '[ -n "$(state_field selected_at)" ] && [ "$(state_field selected)" != "$THREAD" ]' \
  || fail "Up selected no frame above the thread $THREAD"
FRAME=$(state_field selected)
AT=$(state_field selected_at)
hover_at "$WID" "${AT%,*}" "${AT#*,}"
wait_state "hover=$FRAME"
double_click_until "zoom=$FRAME"
expect_function "$ALL" "$FRAME"
wait_state "histogram=$(python3 "$EXPECT" "$ALL" frame "$FRAME")" "zoom=$FRAME"
ok "a double-click on $FRAME zooms and picks its function; the histogram has that frame's calls"

# The strip's one step (50): the scoped tree's table and sandwich.
xdotool mousemove --window "$WID" 100 70 click 1
STEP=$(cli_json 50)
wait_state scope=50 durations=1 "rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["functions"]))' "$STEP")"
expect_function "$STEP" "$FRAME"
ok "step 50 rebuilds the table for the scoped tree; $FRAME stays picked, as --steps 50 has it"

xdotool key ctrl+shift+f
wait_state functions=0 rows= function= highlighted=
ok "Ctrl+Shift+F closes the panel and lights every frame again"
