#!/bin/bash
# SPDX-License-Identifier: MIT
# The window's comparison of two profiles, end to end (under xvfb-run):
# `--diff A B` and "Compare with…" (Ctrl+D and the file chooser) show the
# diff of the two real samples; hovering frames shows their tooltip and
# state fields, whose A and B values must be those of
# tests/data/level0_rank0-vs-level1_rank0.diff.expected. With
# AFG_SCREENSHOT_DIR set, it renews docs/screenshot-window-diff.png.
# Usage: test-diff-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

A=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level0_rank0.db
B=$AFG_SAMPLES_DIR/ascend_pytorch_profiler_level1_rank0.db
EXPECTED=$AFG_SAMPLES_DIR/level0_rank0-vs-level1_rank0.diff.expected
TITLE="$(basename "$A") ↔ $(basename "$B")"

find_window () {
  WID=$(timeout 10 xdotool search --sync --onlyvisible --name "$1" | head -1)
  [ -n "$WID" ] || fail "no window named '$1'"
  eval "$(xdotool getwindowgeometry --shell "$WID")"
}

# choose_file KEYS TITLE PATH: KEYS open the chooser TITLE; typing a path
# opens its location entry, Return picks the file.
choose_file () {
  dialog "$1" "$2"
  xdotool type --delay 20 "$3"
  xdotool key Return
}

# The expected line of the hovered frame: its path, then its six values.
check_hovered () {
  local path values want
  path=$(state_field hover_path)
  values=$(state_field hover_values)
  want=$(awk -F '\t' -v p="$path" '$1 == p { print $2, $3, $4, $5, $6, $7 }' "$EXPECTED")
  [ -n "$want" ] || fail "the hovered '$path' is not in the expected diff"
  [ "$values" = "$want" ] || fail "'$path': the window shows $values, expected $want"
  read -r AC AT AS BC BT BS <<< "$values"
  case "$(state_field tooltip)" in
    *"Calls: $AC → $BC"*) ;;
    *) fail "the tooltip of '$path' lacks 'Calls: $AC → $BC': $(state_field tooltip)" ;;
  esac
}

# hover_frames: moves along rows from the bottom (the flame's roots) and
# checks every distinct frame the pointer meets; sets CHECKED.
hover_frames () {
  local seen="" y x path
  CHECKED=0
  for y in $(seq $((HEIGHT - 40)) -20 $((HEIGHT - 400))); do
    for x in $((WIDTH / 10)) $((WIDTH / 2)) $((WIDTH * 55 / 100)) $((WIDTH * 8 / 10)) $((WIDTH * 97 / 100)); do
      hover_at "$WID" "$x" "$y"
      path=$(state_field hover_path)
      [ -n "$path" ] || continue
      case "$seen" in *"|$path|"*) continue ;; esac
      seen="$seen|$path|"
      check_hovered
      CHECKED=$((CHECKED + 1))
    done
  done
}

# A tooltip on screen: GTK shows it as a window of its own, named after
# the application, tall enough for the four lines of a diff frame and
# drawn dark.
dark_tooltip () {
  local tip WINDOW X Y WIDTH HEIGHT SCREEN
  for tip in $(xdotool search --onlyvisible --name "^Ascend Flame Graph\$" 2>/dev/null); do
    eval "$(xdotool getwindowgeometry --shell "$tip")"
    [ "$HEIGHT" -ge 60 ] || continue
    import -window "$tip" "$WORK/tip.png"
    convert "$WORK/tip.png" -format "%[fx:mean]" info: | awk '{ exit !($1 < 0.35) }' && return 0
  done
  return 1
}

# tooltip_shown: a tooltip on screen within 30 s (under ASan,
# tools/ci-sanitize.sh, its first draw takes seconds). A tooltip GTK
# dropped (a redraw under the pointer, seconds late under ASan) comes
# back after a one-pixel move within the frame, tried every 2 s.
tooltip_shown () {
  for _ in $(seq 15); do
    poll 2 dark_tooltip && return 0
    xdotool mousemove_relative -- 1 0
    barrier
    xdotool mousemove_relative -- -1 0
  done
  return 1
}

# --- --diff A B opens a window with the diff --------------------------------
start_app --diff "$A" "$B"
wait_state page=graph mode=diff "file=$A" "compared=$B" shape=b color=self norm=raw "zoom=All threads"
find_window "^$TITLE\$"
[ "$(xdotool getwindowname "$WID")" = "$TITLE" ] || fail "window title"
ok "--diff A B opens a window titled '$TITLE'"

hover_frames
[ "$CHECKED" -ge 8 ] || fail "only $CHECKED frames hovered"
ok "$CHECKED hovered frames show A's and B's calls, total and self of the expected diff"

# The widest frame of the B shape's second row, and its tooltip on screen.
xdotool mousemove --window "$WID" $((WIDTH / 4)) $((HEIGHT - 60))
wait_state "hover_path=<string>(1): <module>"
check_hovered
case "$(state_field tooltip)" in
  *"Total: "*" → "*" ("*"%)"*) ;;
  *) fail "the tooltip has no 'A → B (Δ, Δ%)' line: $(state_field tooltip)" ;;
esac
tooltip_shown || fail "no tooltip on screen"
find_window "^$TITLE\$"
# With AFG_SCREENSHOT_DIR set, docs/diff.md's picture: the diff, its
# legend and the tooltip of a frame half-way up, which fits in the window.
if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
  hover_at "$WID" $((WIDTH / 4)) $((HEIGHT / 2))
  [ -n "$(state_field hover_path)" ] || fail "no frame half-way up for the screenshot"
  tooltip_shown || fail "no tooltip for the screenshot"
  import -window root -crop "${WIDTH}x${HEIGHT}+0+0" +repage "$AFG_SCREENSHOT_DIR/screenshot-window-diff.png"
fi
ok "the tooltip of <string>(1): <module> reads 'A → B (Δ, Δ%)' and is on screen"

search Dequeue
poll 10 has_matches
MATCHES=$(state_field matches)
[ -n "$MATCHES" ] && [ "$MATCHES" -ge 1 ] || fail "the search found nothing"
act win.escape
wait_state matches=
ok "search works in the diff ($MATCHES matches for Dequeue)"

# The way out: Esc (the search gone, the zoom reset) shows A alone, and
# so does Stop Comparing from the main menu's action.
xdotool key Escape
wait_state page=graph mode=profile "file=$A" compared=
ok "Esc, with no search and no zoom, goes from the diff back to A alone"
stop_app
start_app --diff "$A" "$B"
wait_state page=graph mode=diff "file=$A" "compared=$B"
act win.stop-comparing
wait_state page=graph mode=profile "file=$A" compared=
ok "Stop Comparing goes from the diff back to A alone"
stop_app

# --- Export (Ctrl+E) in a diff writes the diff: the CLI's bytes -----------------
start_app --diff "$A" "$B"
wait_state page=graph mode=diff "file=$A" "compared=$B"
find_window "^$TITLE\$"
mkdir -p "$WORK/cli" "$WORK/gui"
for format in html json folded; do
  "$EXE" --diff "$A" "$B" --export -q --merge-addresses -f "$format" -o "$WORK/cli" \
    || fail "the CLI's --diff --export -f $format failed"
  export_to "$WORK/gui/flamegraph-diff.$format"
  wait_state mode=diff "exported=$WORK/gui/flamegraph-diff.$format"
  cmp "$WORK/cli/flamegraph-diff.$format" "$WORK/gui/flamegraph-diff.$format" \
    || fail "the window's diff as $format differs from --diff A B --export -f $format"
  ok "Export in a diff writes the bytes of --diff A B --export -f $format"
done

# While NPU idle compares the sides' idle instants, as --diff --npu-idle:
# B's idle tree, and the export of --diff A B --npu-idle.
ROOT_B=$(state_field root_ns)
"$EXE" --export -q --merge-addresses --npu-idle -f json -o "$WORK/cli-idle-b" "$B" || fail "the CLI's --npu-idle failed"
IDLE_B=$(python3 -c 'import json, sys
print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' "$WORK/cli-idle-b/flamegraph.json")
"$EXE" --diff "$A" "$B" --export -q --merge-addresses --npu-idle -f json -o "$WORK/cli-idle" \
  || fail "the CLI's --diff --npu-idle failed"
act win.npu-idle
wait_state page=graph mode=diff idle=1 "root_ns=$IDLE_B"
find_window "^$TITLE\$"
export_to "$WORK/gui/idle-diff.json"
wait_state mode=diff "exported=$WORK/gui/idle-diff.json"
cmp "$WORK/cli-idle/flamegraph-diff.json" "$WORK/gui/idle-diff.json" \
  || fail "the window's idle diff differs from --diff A B --npu-idle --export -f json"
act win.npu-idle
wait_state page=graph mode=diff idle=0 "root_ns=$ROOT_B"
ok "While NPU idle in a diff compares the idle instants: B's root $IDLE_B, the bytes of --diff --npu-idle"

# A side without device tasks has no idle instants: compared whole, and
# the notice gives the command line's reason.
NO_TASK=$WORK/no-task.db
cp "$B" "$NO_TASK" && sqlite3 "$NO_TASK" "DROP TABLE TASK" || fail "cannot make a DB without TASK"
REASON=$("$EXE" --diff "$A" "$NO_TASK" --export --npu-idle -o "$WORK/no-task" 2>&1 | sed -n 's/^ascend-flamegraph: error: //p')
[ -n "$REASON" ] || fail "the CLI gave no reason to refuse --diff --npu-idle without TASK"
act win.npu-idle
wait_state page=graph mode=diff idle=1
find_window "^$TITLE\$"
choose_file ctrl+d "Compare with a Profiler Database" "$NO_TASK"
wait_state page=graph mode=diff idle=0 "compared=$NO_TASK" "notice=$REASON"
ok "While NPU idle, a side without device tasks is compared whole, and the notice says why"

# The Functions panel of a diff: one row per distinct name of the diff's
# JSON, the first the one whose self time changed most (|B − A|, ties by
# name), with A's times scaled to B's total under Equal totals; the
# search filters it by name.
read -r N_FUNCTIONS TOP TOP_EQUAL N_DEQUEUE <<< "$(python3 - "$WORK/cli/flamegraph-diff.json" <<'PY'
import json, sys
selfs = {}
def walk(nodes):
    for n in nodes:
        s = selfs.setdefault(n["name"], [0, 0])
        s[0] += n["a"]["self_ns"]
        s[1] += n["b"]["self_ns"]
        walk(n["children"])
top_level = json.load(open(sys.argv[1]))["children"]
walk(top_level)
scale = sum(n["b"]["total_ns"] for n in top_level) / sum(n["a"]["total_ns"] for n in top_level)
def top(a_scale):
    return sorted(selfs, key=lambda k: (-abs(selfs[k][1] - selfs[k][0] * a_scale), k.encode()))[0]
print(len(selfs), top(1).replace(" ", "\x01"), top(scale).replace(" ", "\x01"),
      sum("dequeue" in k.lower() for k in selfs))
PY
)"
TOP=${TOP//$'\x01'/ }
TOP_EQUAL=${TOP_EQUAL//$'\x01'/ }
[ "$TOP" != "$TOP_EQUAL" ] || fail "Equal totals should change the first function: this check proves nothing"
act win.toggle-functions
wait_state mode=diff functions=1 "rows=$N_FUNCTIONS" "top=$TOP"
act diff.norm "'equal-totals'"
wait_state mode=diff functions=1 norm=equal-totals "top=$TOP_EQUAL"
act diff.norm "'raw'"
wait_state mode=diff functions=1 norm=raw "top=$TOP"
search Dequeue
wait_state mode=diff functions=1 "rows=$N_DEQUEUE"
ok "the Functions panel of a diff lists its $N_FUNCTIONS functions, '$TOP' (the largest |Δ self|) first, '$TOP_EQUAL' with equal totals; the search filters it"
act win.escape
wait_state mode=diff matches= "rows=$N_FUNCTIONS"
stop_app

# --- Compare with… picks B in the file chooser --------------------------------
start_app "$A"
wait_state page=graph mode=profile "file=$A"
find_window "^$(basename "$A")\$"
choose_file ctrl+d "Compare with a Profiler Database" "$B"
wait_state page=graph mode=diff "file=$A" "compared=$B"
find_window "^$TITLE\$"
hover_frames
[ "$CHECKED" -ge 8 ] || fail "only $CHECKED frames hovered"
ok "Ctrl+D and the chooser compare A with B: $CHECKED hovered frames as expected"

# Opening a DB from the diff opens it in a window of its own (as
# docs/diff.md says); the diff stays in its window.
choose_file ctrl+o "Open a Profiler Database" "$B"
wait_state page=graph mode=profile "file=$B" compared=
find_window "^$(basename "$B")\$"
find_window "^$TITLE\$"
ok "Ctrl+O in a diff opens the DB in a window of its own; the diff stays in its window"
stop_app

# --- a side that cannot be read is the window's error ---------------------------
printf 'this is not a database\n' > "$WORK/bad.db"
"$EXE" --export -o "$WORK" "$WORK/bad.db" 2> "$WORK/cli.err" && fail "the CLI accepted a bad file"
MESSAGE=$(sed -n 's/^ascend-flamegraph: error: //p' "$WORK/cli.err" | head -1)
start_app --diff "$A" "$WORK/bad.db"
wait_state page=error "error=$MESSAGE"
find_window "^$(basename "$A") ↔ bad.db\$"
ok "a bad B shows the error page with the CLI's message"
stop_app
echo "1..$N"
