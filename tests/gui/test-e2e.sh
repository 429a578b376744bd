#!/bin/bash
# SPDX-License-Identifier: MIT
# End to end: the real binary in a real X window (run under xvfb-run),
# driven by xdotool; asserts on the window title, screenshot pixels and
# the app's test state lines (AFG_TEST_STATE). Every shortcut of README's
# table is pressed here. Usage: test-e2e.sh ASCEND_FLAMEGRAPH MAKE_TEST_DB
EXE=$1
MAKE_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
README=$(dirname "$0")/../../README.md
HELP_UI=$(dirname "$0")/../../ui/help-overlay.ui

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

# pixel_is X Y TEST: TEST holds on the pixel's $R $G $B.
pixel_is () {
  read -r R G B <<< "$(pixel "$1" "$2")"
  eval "$3"
}

# expect_pixel X Y TEST MESSAGE: TEST (on $R $G $B) must hold within 10 s;
# the window redraws a frame after the state line that announced a change.
expect_pixel () {
  poll 10 pixel_is "$1" "$2" "$3" || fail "$4: $R $G $B"
}

# blue_near_left Y: a blue pixel in the first 16 columns of row Y (the
# graph starts after the window's frame).
blue_near_left () {
  import -window "$WID" "$WORK/shot.png"
  convert "$WORK/shot.png" -crop "16x1+0+$1" +repage -depth 8 txt:- \
    | sed -n 's/.*srgb(\([0-9]*\),\([0-9]*\),\([0-9]*\)).*/\1 \2 \3/p' \
    | while read -r R G B; do
        [ "$B" -gt 150 ] && [ "$B" -gt $((R + 60)) ] && [ "$B" -gt $((G + 30)) ] && echo yes && break
      done
}

outlined () { [ -n "$(blue_near_left "$1")" ]; }

no_window () { ! xdotool search --onlyvisible --name "$1" > /dev/null; }

dialog_gone () {
  poll 10 no_window "$1" || fail "the dialog '$1' stays open"
}

# key KEYS STATE...: presses KEYS, then waits for the state.
key () {
  local keys=$1
  shift
  xdotool key "$keys"
  wait_state "$@"
}

# --- README's shortcuts are the Shortcuts window's, each pressed by a test --
TESTED="Ctrl+O|Ctrl+Shift+O|Ctrl+D|Ctrl+E|Ctrl+W|Ctrl+Q|Ctrl+? F1|Ctrl+F|F3|Shift+F3|Ctrl+Shift+F|Escape|↑ ↓ ← →|Return|BackSpace|Ctrl+C|Ctrl+N|Alt+F|Shift+Alt+F|Alt+M|Alt+D|Alt+R|Ctrl+Z|"
LISTED=$(sed -n '/^| Keys | Action |$/,/^$/p' "$README" | sed -n 's/^| \([^|]*[^ ]\) | .*/\1/p' \
         | grep -v -e '^Keys$' -e '^---' | tr '\n' '|')
[ "$LISTED" = "$TESTED" ] || fail "README lists '$LISTED', this test presses '$TESTED'"
ACCELS='&lt;ctrl&gt;o|&lt;ctrl&gt;&lt;shift&gt;o|&lt;ctrl&gt;d|&lt;ctrl&gt;e|&lt;ctrl&gt;w|&lt;ctrl&gt;q|&lt;ctrl&gt;question F1|&lt;ctrl&gt;f|F3|&lt;shift&gt;F3|&lt;ctrl&gt;&lt;shift&gt;f|Escape|Up Down Left Right|Return|BackSpace|&lt;ctrl&gt;c|&lt;ctrl&gt;n|&lt;alt&gt;f|&lt;alt&gt;&lt;shift&gt;f|&lt;alt&gt;m|&lt;alt&gt;d|&lt;alt&gt;r|&lt;ctrl&gt;z|'
# The Shortcuts window holds exactly these, in README's order.
SHOWN=$(sed -n 's|.*<property name="accelerator">\(.*\)</property>.*|\1|p' "$HELP_UI" | tr '\n' '|')
[ "$SHOWN" = "$ACCELS" ] || fail "the Shortcuts window lists '$SHOWN', README '$ACCELS'"
# Ctrl+Shift+O (Open Folder…) is pressed by test-ranks-window.sh; Alt+F,
# Shift+Alt+F, Alt+M, Alt+D, Alt+R and Ctrl+Z by test-transforms-window.sh.
ok "README's table and the Shortcuts window list the same shortcuts, each pressed by a test"

# --- the flame graph of a known tree -------------------------------------
DB=$("$MAKE_DB") || fail "could not build the test DB"
DB_DIR=$(dirname "$DB")
NAME=$(basename "$DB")
start_app "$DB"
wait_state page=graph "zoom=All threads" "file=$DB"
find_window "^$NAME\$"
[ "$(xdotool getwindowname "$WID")" = "$NAME" ] || fail "window title"
ok "the window shows $NAME"

# The graph is a flame (root at the bottom) by default: find the thread row
# by moving the real pointer up from the bottom, across the root row.
ROW1=
for y in $(seq $((HEIGHT - 10)) -2 $((HEIGHT - 200))); do
  hover_at "$WID" $((W / 2)) "$y"
  if has_fields "$(last_state)" hover=1/2; then ROW1=$y; break; fi
done
[ -n "$ROW1" ] || fail "no thread row under the pointer"
[ "$(count_states "hover=All threads")" -ge 1 ] || fail "the root row was not hovered"
row_y () { echo $((ROW1 - ($1 - 1) * 20 - 8)); }
ok "pointer hover reaches the root and thread rows"

hover_at "$WID" $((W / 10)) "$(row_y 3)"
wait_state hover=aten::add
expect_pixel $((W / 10)) "$(row_y 3)" '[ "$R" -gt "$G" ] && [ "$G" -gt "$B" ]' "aten::add is not orange"
ok "hovering aten::add, drawn in the framework colour"

xdotool click 1
wait_state selected=aten::add "zoom=All threads"
poll 10 outlined "$(row_y 3)" || fail "the selected frame has no blue outline"
ok "a click selects aten::add and outlines it"

double_click_until zoom=aten::add
expect_pixel $((W * 9 / 10)) "$(row_y 3)" '[ "$R" -gt "$G" ] && [ "$G" -gt "$B" ]' \
  "zoomed aten::add does not span the width"
ok "a double-click zooms: aten::add spans the width"

key ctrl+f
xdotool type --delay 30 "mul"
# The share is of the whole view (all threads here), not of the zoom: the page counts the same.
wait_state matches=1 matched=6.7%
expect_pixel $((W * 9 / 10)) "$(row_y 3)" '[ "$R" -gt 200 ] && [ "$G" -gt 200 ] && [ "$B" -gt 200 ]' \
  "non-matches are not dimmed"
ok "Ctrl+F and typing find aten::mul (1 match, 6.7% of the view) and dim the rest"

key Escape matches= zoom=aten::add
key Escape "zoom=All threads"
expect_pixel $((W * 9 / 10)) "$(row_y 2)" '[ "$G" -gt "$R" ] && [ "$G" -gt "$B" ]' \
  "after Esc acl_op (green) is not back"
ok "Escape clears the search, then resets the zoom"

xdotool type --delay 30 "mm"
wait_state matches=1
key Escape matches= "zoom=All threads"
ok "typing in the graph starts a search"

key ctrl+shift+f functions=1 top=acl_op rows=6 function=
key ctrl+shift+f functions=0 rows=
ok "Ctrl+Shift+F shows the Functions panel (most self time first), and hides it"

key Return zoom=aten::add selected=aten::add
key BackSpace "zoom=main.py(1): run"
key BackSpace zoom=1/2
key Escape "zoom=All threads"
ok "Return zooms into the selected frame, BackSpace zooms out one level"

# F3 / Shift+F3, and Enter / Shift+Enter in the search entry, step through
# the matches depth first (aten::add, aten::mul, aten::mm), round and
# round, selecting each and zooming out of a zoom that hides it.
key Return zoom=aten::add selected=aten::add
key ctrl+f
xdotool type --delay 30 "aten"
wait_state matches=3 zoom=aten::add match=
key F3 match=1 selected=aten::add zoom=aten::add
key Return match=2 selected=aten::mul zoom=aten::add
key Return match=3 "selected=aten::mm" "zoom=All threads"
key F3 match=1 selected=aten::add
key shift+F3 match=3 selected=aten::mm
key shift+Return match=2 selected=aten::mul
key shift+F3 match=1 selected=aten::add
ok "F3 / Shift+F3 and Enter / Shift+Enter in the search step through the 3 matches, zooming out to aten::mm"
key Escape matches= match=
key Escape "zoom=All threads"

# Flame orientation: children are drawn above, so Up goes to a child (the
# widest: forward, 400 ns, not the first, aten::add, 300 ns).
key Down "selected=main.py(1): run"
key Up "selected=torch/nn.py(5): forward"
key Left selected=aten::add
key Right "selected=torch/nn.py(5): forward"
key Down "selected=main.py(1): run"
ok "arrows select the parent, the widest child and the siblings"

key ctrl+c
key ctrl+f
key ctrl+v "matches=1"
key Escape matches=
ok "Ctrl+C copies the selected frame's name (pasted into the search: 1 match)"

# This DB has no TASK table: the weight switch is off, Ctrl+N does nothing
# (test-npu-window presses it on a DB with NPU data).
key ctrl+n weight=host
barrier
[ "$(state_field weight)" = host ] || fail "Ctrl+N switched a DB without NPU data to '$(state_field weight)'"
ok "Ctrl+N keeps host time on a DB without NPU data"

dialog ctrl+o "Open a Profiler Database"
xdotool key Escape
ok "Ctrl+O shows the open dialog"

# test-diff-window picks a DB in this dialog and checks the comparison.
dialog_gone "^Open a Profiler Database\$"
xdotool windowfocus --sync "$WID" 2>/dev/null
wait_focus "$WID"
dialog ctrl+d "Compare with a Profiler Database"
xdotool key Escape
dialog_gone "^Compare with a Profiler Database\$"
ok "Ctrl+D shows the compare dialog"

# The export dialog proposes the DB's folder and a name from the DB.
xdotool windowfocus --sync "$WID" 2>/dev/null
wait_focus "$WID"
dialog ctrl+e "Export Flame Graph"
xdotool key Return
wait_state "exported=$DB_DIR/${NAME%.db}.html"
[ -s "$DB_DIR/${NAME%.db}.html" ] || fail "the export is missing"
ok "Ctrl+E proposes ${NAME%.db}.html beside the DB"

xdotool key ctrl+w
poll 10 app_gone || fail "Ctrl+W did not close the window"
PID=
ok "Ctrl+W closes the window (the last one: the app ends)"

# GTK's file chooser put the page into the recent files; the start page
# lists only profiles.
grep -qF "${NAME%.db}.html" "$XDG_DATA_HOME/recently-used.xbel" \
  || fail "the export is not in recently-used.xbel: this check proves nothing"
start_app
wait_state page=empty recent=1
ok "the start page lists the DB, not the exported page"
stop_app

# --- a bad file shows the CLI's message ------------------------------------
printf 'this is not a database\n' > "$WORK/bad.db"
"$EXE" --export -o "$WORK" "$WORK/bad.db" 2> "$WORK/cli.err" && fail "the CLI accepted a bad file"
MESSAGE=$(sed -n 's/^ascend-flamegraph: error: //p' "$WORK/cli.err" | head -1)
[ -n "$MESSAGE" ] || fail "the CLI printed no error"
start_app "$WORK/bad.db"
wait_state page=error "error=$MESSAGE"
find_window "^bad.db\$"
ok "a bad file shows the error state with the CLI's message"
stop_app

# --- Export as HTML writes the CLI's bytes (addresses merged, the window's default)
SAMPLE=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level0_rank0.db
mkdir -p "$WORK/cli" "$WORK/gui"
"$EXE" --export -q --merge-addresses -o "$WORK/cli" "$SAMPLE" || fail "the CLI export failed"
start_app "$SAMPLE"
wait_state page=graph
find_window "^$(basename "$SAMPLE")\$"
dialog ctrl+e "Export Flame Graph"
xdotool key ctrl+a
xdotool type --delay 20 "$WORK/gui/flamegraph.html"
xdotool key Return
wait_state "exported=$WORK/gui/flamegraph.html"
cmp "$WORK/cli/flamegraph.html" "$WORK/gui/flamegraph.html" || fail "export differs from the CLI"
ok "Export as HTML writes the same bytes as ascend-flamegraph --export"
wait_state "open=Open in Browser"
ok "A page exported offers to open it in the browser"

# The name picks the format: .trace.json the CLI's -f trace, .json its
# -f json, .folded its -f folded.
export_as () {
  export_to "$WORK/gui/$1"
  wait_state "exported=$WORK/gui/$1"
}
for format in trace:flamegraph.trace.json json:flamegraph.json folded:flamegraph.folded; do
  "$EXE" --export -q --merge-addresses -f "${format%%:*}" -o "$WORK/cli" "$SAMPLE" || fail "the CLI ${format%%:*} export failed"
  export_as "${format#*:}"
  cmp "$WORK/cli/${format#*:}" "$WORK/gui/${format#*:}" || fail "the window's ${format#*:} differs from the CLI's"
  ok "Export to ${format#*:} writes the CLI's -f ${format%%:*} bytes"
  wait_state "open=Open File"
  ok "Export to ${format#*:} offers to open the file, not a browser"
done
# Folded stacks weigh what the graph shows: in compute, the CLI's
# --weight compute --kernels (the leaves the graph draws).
"$EXE" --export -q --merge-addresses -f folded --weight compute --kernels -o "$WORK/cli-compute" "$SAMPLE" \
  || fail "the CLI compute folded export failed"
act win.weight "'compute'"
wait_state weight=compute
export_as compute.folded
cmp "$WORK/cli-compute/flamegraph.folded" "$WORK/gui/compute.folded" \
  || fail "the window's folded stacks in compute differ from the CLI's --weight compute --kernels"
ok "Export to .folded in the compute weight writes the CLI's --weight compute --kernels bytes"
act win.weight "'host'"
wait_state weight=host
stop_app

# A DB whose TASK cannot give the device tracks: the trace has the host
# tracks, and the window says why, with the CLI's words.
NO_STREAM=$WORK/no-stream.db
cp "$SAMPLE" "$NO_STREAM" && sqlite3 "$NO_STREAM" "ALTER TABLE TASK DROP COLUMN streamId" \
  || fail "cannot make a TASK without streamId"
mkdir -p "$WORK/cli-no-stream"
WARNING=$("$EXE" --export -f trace --merge-addresses -o "$WORK/cli-no-stream" "$NO_STREAM" 2>&1 >/dev/null \
          | sed -n 's/^ascend-flamegraph: warning: \(no NPU device tracks: .*\)$/\1/p')
[ -n "$WARNING" ] || fail "the CLI gave no warning for a TASK without streamId"
start_app "$NO_STREAM"
wait_state page=graph
find_window "^$(basename "$NO_STREAM")\$"
export_as no-stream.trace.json
wait_state "notice=Exported the flame graph to $WORK/gui/no-stream.trace.json — $WARNING"
cmp "$WORK/cli-no-stream/flamegraph.trace.json" "$WORK/gui/no-stream.trace.json" \
  || fail "the window's host-only trace differs from the CLI's"
ok "A trace without device tracks says why, as the CLI does, and writes its bytes"
act win.dismiss-notice
wait_state notice=
wait_state open=
ok "Dismiss clears the notice and its button"
stop_app
echo "1..$N"
