# SPDX-License-Identifier: MIT
# Shared by the Xvfb end-to-end scripts (sourced, not run): a private work
# directory and XDG dirs, TAP output, and the app under test started in the
# background with its debug log in $LOG. Set EXE before sourcing; set DB_DIR
# to a directory the cleanup should remove too.
set -u

WORK=$(mktemp -d)
LOG=$WORK/app.log
PID=
DB_DIR=
N=0

cleanup () {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$WORK" "$DB_DIR"
}
trap cleanup EXIT

fail () {
  echo "not ok - $*"
  echo "# --- app log ---"
  sed 's/^/# /' "$LOG" 2>/dev/null | tail -30
  exit 1
}

ok () {
  N=$((N + 1))
  echo "ok $N - $*"
}

[ -n "${DISPLAY:-}" ] || fail "no X display: run under xvfb-run"
export XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config XDG_CACHE_HOME=$WORK/cache
export LC_ALL=C.UTF-8

# start_app ARG...: the app, its stdin the test control channel
# (docs/test-state-line.md) that fd 9 writes to; see send, act and barrier.
start_app () {
  : > "$LOG"
  [ -p "$WORK/control" ] || mkfifo "$WORK/control"
  AFG_TEST_CONTROL=1 "$EXE" "$@" < "$WORK/control" > "$LOG" 2>&1 &
  PID=$!
  exec 9> "$WORK/control"
}

app_gone () { ! kill -0 "$PID" 2>/dev/null; }

stop_app () {
  exec 9>&-
  kill "$PID" 2>/dev/null
  wait "$PID" 2>/dev/null
  PID=
}

# keyfile_settings: the app's GSettings in $WORK, in a keyfile, with the
# repository's schema: a choice the test makes is remembered across starts
# without touching the user's settings.
keyfile_settings () {
  mkdir -p "$WORK/schemas"
  cp "$(dirname "$0")/../../data/io.github.ascend_flamegraph.AscendFlameGraph.gschema.xml" "$WORK/schemas/"
  glib-compile-schemas "$WORK/schemas" || fail "glib-compile-schemas"
  export GSETTINGS_SCHEMA_DIR=$WORK/schemas GSETTINGS_BACKEND=keyfile
}

# The app's state lines (docs/test-state-line.md): one per change,
# "afg-state" then TAB-separated KEY=VALUE fields.
export AFG_TEST_STATE=1
TAB=$(printf '\t')

# poll SECONDS COMMAND...: runs COMMAND until it succeeds, at first every
# 10 ms, then every 50 ms; fails after about SECONDS. The one wait of
# these tests: each waits on what the app or the X server says.
poll () {
  local tries=$(($1 * 20 + 10)) i
  shift
  for ((i = 0; i < tries; i++)); do
    "$@" && return 0
    sleep "$([ "$i" -lt 10 ] && echo 0.01 || echo 0.05)"
  done
  return 1
}

# last_state: the newest state line, its fields between TABs.
last_state () {
  printf '%s%s' "$(tac "$LOG" | grep -m1 '^afg-state')" "$TAB"
}

# has_fields LINE KEY=VALUE...: every given field is in LINE, exactly.
has_fields () {
  local line=$1
  shift
  for f in "$@"; do
    case "$line" in *"$TAB$f$TAB"*) ;; *) return 1 ;; esac
  done
}

state_has () { has_fields "$(last_state)" "$@"; }

# wait_state KEY=VALUE...: waits up to 30 s until the newest state line
# holds every given field.
wait_state () {
  poll 30 state_has "$@" \
    || fail "the state never reached '$*' (last: $(last_state | tr '\t' ' '))"
}

# send LINE: one command to the app's control channel.
send () {
  kill -0 "$PID" 2>/dev/null || fail "the app is gone, it cannot take '$*'"
  printf '%s\n' "$*" >&9
}

# act NAME [PARAM]: activates the action (win.*, app.*) in the active
# window, PARAM in GVariant text format.
act () { send "action $*"; }

# search TEXT: Ctrl+F and TEXT typed, without the keyboard.
search () { send "search $1"; }

# pick TYPE POS: picks row POS of the first visible TYPE (GtkDropDown,
# AfgRankSidebar…) of the active window, as a click on it does.
pick () { send "select $1 $2"; }

# click: selects the frame under the pointer in the flame graph, as a
# left click there does, and waits until the state shows it.
click () { send click; barrier; }

# barrier: returns once every command and X input sent before it took
# effect, the window laid out and drawn: the state line is then current.
SEQ=0
barrier () {
  SEQ=$((SEQ + 1))
  send "barrier $SEQ"
  wait_state "seq=$SEQ"
}

# hover_at WID X Y: moves the pointer there; the state is then current.
hover_at () {
  xdotool mousemove --window "$1" "$2" "$3"
  barrier
}

# wait_focus WINDOW: the X input focus is on WINDOW (a dialog takes it
# some time after it is mapped; keys typed before are lost).
has_focus () { [ "$(xdotool getwindowfocus 2>/dev/null)" = "$1" ]; }
wait_focus () {
  poll 10 has_focus "$1" || fail "the window $1 never took the focus"
}

# dialog KEYS TITLE: KEYS open the dialog TITLE, which takes the focus.
dialog () {
  xdotool key "$1"
  DIALOG=$(timeout 10 xdotool search --sync --onlyvisible --name "^$2\$" | head -1)
  [ -n "$DIALOG" ] || fail "$1 shows no '$2' dialog"
  wait_focus "$DIALOG"
}

# export_to PATH: Ctrl+E, PATH typed as the file's name, Return; the
# caller waits for what follows (exported=PATH, or a notice).
export_to () {
  dialog ctrl+e "Export Flame Graph"
  xdotool key ctrl+a
  xdotool type --delay 20 "$1"
  xdotool key Return
}

# popup_shown N: more than N windows of the app are mapped (a menu is a
# window of its own).
n_windows () { xdotool search --onlyvisible --pid "$PID" '' 2>/dev/null | wc -l; }
popup_shown () { [ "$(n_windows)" -gt "$1" ]; }
popup_gone () { [ "$(n_windows)" -le "$1" ]; }

# menu_first_item WID X Y KEY=VALUE...: right-clicks at X Y in WID,
# takes the menu's first item with Return, then waits for the state. The
# menu takes the keyboard some time after it is mapped: a Return before
# is lost (the menu stays open), and the menu is closed and asked for
# again.
menu_first_item () {
  local wid=$1 x=$2 y=$3 windows
  shift 3
  for _ in 1 2 3; do
    windows=$(n_windows)
    xdotool mousemove --window "$wid" "$x" "$y" click 3
    poll 10 popup_shown "$windows" || fail "a right click at $x,$y shows no menu"
    barrier
    xdotool key Return
    if poll 5 popup_gone "$windows"; then
      wait_state "$@"
      barrier
      return 0
    fi
    echo "# the menu missed a Return; again"
    xdotool key Escape
    poll 10 popup_gone "$windows" || fail "the menu at $x,$y stays open"
    barrier
  done
  fail "the menu at $x,$y never took a Return"
}

# double_click_until KEY=VALUE...: double-clicks button 1 at the pointer
# until the newest state line holds the fields, three tries of 3 s. GTK
# sees a double-click only when both clicks come within its double-click
# time, which a loaded machine (the sanitised suite runs two tests at
# once) can miss; the two clicks then each selected the frame under the
# pointer, where the next try starts from.
double_click_until () {
  for _ in 1 2 3; do
    xdotool click --repeat 2 --delay 80 1
    poll 3 state_has "$@" && return 0
  done
  fail "a double-click never reached '$*' (last: $(last_state | tr '\t' ' '))"
}

# count_states KEY=VALUE...: how many state lines so far hold the fields.
count_states () {
  local n=0
  while IFS= read -r line; do
    has_fields "$line$TAB" "$@" && n=$((n + 1))
  done < <(grep '^afg-state' "$LOG")
  echo $n
}

# state_field KEY: the value of KEY in the newest state line.
state_field () {
  last_state | tr '\t' '\n' | sed -n "s/^$1=//p" | head -1
}

# tooltip_of NAME: the tooltip of the frame NAME under the pointer, into
# TIP, from one state line: the tooltip's popup can take the pointer away
# for a moment (the hover blinks).
tooltip_of () {
  local line
  line=$(last_state | tr '\t' '\n')
  [ "$(sed -n 's/^hover=//p' <<< "$line")" = "$1" ] || return 1
  TIP=$(sed -n 's/^tooltip=//p' <<< "$line")
}

# find_root_y WID: ROOT_Y, the height of the flame's root row ("All
# threads", at the bottom) in the middle of the window (WIDTH, HEIGHT).
find_root_y () {
  local y
  for y in $(seq $((HEIGHT - 10)) -2 $((HEIGHT - 120))); do
    hover_at "$1" $((WIDTH / 2)) "$y"
    [ "$(state_field hover)" = "All threads" ] && ROOT_Y=$y && return 0
  done
  fail "no root frame under the pointer at the bottom"
}

# tooltip_window: a tooltip is on screen (GTK names its window after the
# application).
tooltip_window () { xdotool search --onlyvisible --name "^Ascend Flame Graph\$" > /dev/null 2>&1; }

# has_matches: the search found something (matches is not empty).
has_matches () { [ -n "$(state_field matches)" ]; }
