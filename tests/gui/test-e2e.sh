#!/bin/bash
# SPDX-License-Identifier: MIT
# End to end: the real binary in a real X window (run under xvfb-run),
# driven by xdotool; asserts on the window title, screenshot pixels and
# the app's debug log. Usage: test-e2e.sh ASCEND_FLAMEGRAPH MAKE_TEST_DB
EXE=$1
MAKE_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
export G_MESSAGES_DEBUG="afg-window afg-flame-view"

find_window () {
  WID=$(timeout 10 xdotool search --sync --onlyvisible --name "$1" | head -1)
  [ -n "$WID" ] || fail "no window named '$1'"
  eval "$(xdotool getwindowgeometry --shell "$WID")"
  W=$WIDTH
}

pixel () {
  import -window "$WID" "$WORK/shot.png"
  convert "$WORK/shot.png" -format "%[fx:int(255*p{$1,$2}.r)] %[fx:int(255*p{$1,$2}.g)] %[fx:int(255*p{$1,$2}.b)]" info:
}

# expect_pixel X Y TEST MESSAGE: TEST (on $R $G $B) must hold within 3 s;
# the window redraws a frame after the log line that announced a change.
expect_pixel () {
  for _ in $(seq 30); do
    read -r R G B <<< "$(pixel "$1" "$2")"
    eval "$3" && return 0
    sleep 0.1
  done
  fail "$4: $R $G $B"
}

hover () {
  xdotool mousemove --window "$WID" "$1" "$2"
  sleep 0.15
}

# --- the flame graph of a known tree -------------------------------------
DB=$("$MAKE_DB") || fail "could not build the test DB"
DB_DIR=$(dirname "$DB")
NAME=$(basename "$DB")
start_app "$DB"
wait_log "state: graph"
find_window "^$NAME\$"
[ "$(xdotool getwindowname "$WID")" = "$NAME" ] || fail "window title"
ok "the window shows $NAME"

# The graph is a flame (root at the bottom) by default: find the thread row
# by moving the real pointer up from the bottom, across the root row.
ROW1=
for y in $(seq $((HEIGHT - 10)) -2 $((HEIGHT - 200))); do
  xdotool mousemove --window "$WID" $((W / 2)) "$y"
  sleep 0.03
  if grep -qF "hover: 1/2" "$LOG"; then ROW1=$y; break; fi
done
[ -n "$ROW1" ] || fail "no thread row under the pointer"
grep -qF "hover: All threads" "$LOG" || fail "the root row was not hovered"
row_y () { echo $((ROW1 - ($1 - 1) * 20 - 8)); }
ok "pointer hover reaches the root and thread rows"

hover $((W / 10)) "$(row_y 3)"
wait_log "hover: aten::add"
expect_pixel $((W / 10)) "$(row_y 3)" '[ "$R" -gt "$G" ] && [ "$G" -gt "$B" ]' "aten::add is not orange"
ok "hovering aten::add, drawn in the framework colour"

xdotool click 1
wait_log "zoom: aten::add"
expect_pixel $((W * 9 / 10)) "$(row_y 3)" '[ "$R" -gt "$G" ] && [ "$G" -gt "$B" ]' \
  "zoomed aten::add does not span the width"
ok "a click zooms: aten::add spans the width"

xdotool key ctrl+f
sleep 0.2
xdotool type --delay 30 "mul"
wait_log "search: 1 match · 33.3%"
expect_pixel $((W * 9 / 10)) "$(row_y 3)" '[ "$R" -gt 200 ] && [ "$G" -gt 200 ] && [ "$B" -gt 200 ]' \
  "non-matches are not dimmed"
ok "typing a search finds aten::mul (1 match, 33.3%) and dims the rest"

xdotool key Escape
wait_log "escape: clear search"
xdotool key Escape
wait_log "escape: reset zoom"
wait_log "zoom: All threads"
expect_pixel $((W * 9 / 10)) "$(row_y 2)" '[ "$G" -gt "$R" ] && [ "$G" -gt "$B" ]' \
  "after Esc acl_op (green) is not back"
ok "Esc clears the search, then resets the zoom"
stop_app

# --- a bad file shows the CLI's message ------------------------------------
printf 'this is not a database\n' > "$WORK/bad.db"
"$EXE" --export -o "$WORK" "$WORK/bad.db" 2> "$WORK/cli.err" && fail "the CLI accepted a bad file"
MESSAGE=$(sed -n 's/^ascend-flamegraph: error: //p' "$WORK/cli.err" | head -1)
[ -n "$MESSAGE" ] || fail "the CLI printed no error"
start_app "$WORK/bad.db"
wait_log "state: error: $MESSAGE"
find_window "^bad.db\$"
ok "a bad file shows the error state with the CLI's message"
stop_app

# --- Export as HTML writes the CLI's bytes -----------------------------------
SAMPLE=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level0_rank0.db
mkdir -p "$WORK/cli" "$WORK/gui"
"$EXE" --export -q -o "$WORK/cli" "$SAMPLE" || fail "the CLI export failed"
start_app "$SAMPLE"
wait_log "state: graph"
find_window "^$(basename "$SAMPLE")\$"
xdotool key ctrl+e
DIALOG=$(timeout 10 xdotool search --sync --onlyvisible --name "^Export as HTML\$" | head -1)
[ -n "$DIALOG" ] || fail "no export dialog"
sleep 0.5
xdotool key ctrl+a
xdotool type --delay 20 "$WORK/gui/flamegraph.html"
xdotool key Return
wait_log "exported $WORK/gui/flamegraph.html"
cmp "$WORK/cli/flamegraph.html" "$WORK/gui/flamegraph.html" || fail "export differs from the CLI"
ok "Export as HTML writes the same bytes as ascend-flamegraph --export"
stop_app
echo "1..$N"
