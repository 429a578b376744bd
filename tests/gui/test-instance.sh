#!/bin/bash
# SPDX-License-Identifier: MIT
# One instance per session: later launches hand their files to the first
# one over D-Bus, a file already open brings its window forward, and the
# start page lists recent profiles. Runs under xvfb-run and
# dbus-run-session. Usage: test-instance.sh ASCEND_FLAMEGRAPH MAKE_TEST_DB
EXE=$1
MAKE_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || fail "no session bus: run under dbus-run-session"
# A compiled schema and the keyfile backend: Ctrl+Q must save the size.
keyfile_settings

# launch FILE...: a second launch must hand over and exit at once.
launch () {
  timeout 10 "$EXE" "$@" > "$WORK/second.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || fail "a second launch exited with $rc: $(head -3 "$WORK/second.log")"
  kill -0 "$PID" 2>/dev/null || fail "the first instance died"
}

# The first instance's visible titled windows (GDK also maps untitled
# helper windows), sorted.
windows () {
  for w in $(xdotool search --onlyvisible --pid "$PID" '' 2>/dev/null); do
    xdotool getwindowname "$w"
  done | grep -v '^$' | sort | tr '\n' '|'
}

windows_are () { [ "$(windows)" = "$1" ]; }

# expect_windows LIST: the visible windows settle on LIST within 10 s.
expect_windows () {
  poll 10 windows_are "$1" || fail "windows are '$(windows)', expected '$1'"
}

# latest_recent: the path of the newest bookmark of recently-used.xbel.
latest_recent () {
  python3 - "$XDG_DATA_HOME/recently-used.xbel" <<'PY'
import sys, urllib.parse, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    sys.exit(0)
newest = max(root.iter("bookmark"), key=lambda b: b.get("modified", ""), default=None)
if newest is not None:
    print(urllib.parse.unquote(urllib.parse.urlparse(newest.get("href")).path))
PY
}
recent_is () { [ "$(latest_recent)" = "$1" ]; }
n_recent_at_least () { [ "$(grep -c '<bookmark ' "$XDG_DATA_HOME/recently-used.xbel" 2>/dev/null)" -ge "$1" ]; }

DB=$("$MAKE_DB") || fail "could not build the test DB"
DB_DIR=$(dirname "$DB")
A=$DB_DIR/ascend_pytorch_profiler_0.db
B=$DB_DIR/ascend_pytorch_profiler_1.db
[ "$DB" = "$A" ] || mv "$DB" "$A"
cp "$A" "$B"
printf 'not a database\n' > "$DB_DIR/bad.db"

start_app
wait_state page=empty recent=0
expect_windows "Ascend Flame Graph|"
ok "a launch without files shows the start page"

launch "$A"
wait_state page=graph "file=$A"
expect_windows "ascend_pytorch_profiler_0.db|"
ok "a second launch with a file loads it into the start page's window"

launch "$B"
wait_state page=graph "file=$B"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|"
ok "another file opens in a new window of the same instance"

launch "$A"
ln -s "$A" "$DB_DIR/link.db"
launch "$DB_DIR/link.db"
launch "$DB_DIR/./ascend_pytorch_profiler_0.db"
barrier
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|"
[ "$(count_states page=loading)" -eq 2 ] || fail "an open file was loaded again"
ok "a file already open, by its path, a symlink or another spelling, brings its window forward"

launch "$DB_DIR/bad.db"
wait_state page=error "file=$DB_DIR/bad.db"
launch "$DB_DIR/bad.db"
wait_state page=error "file=$DB_DIR/bad.db"
[ "$(count_states page=loading "file=$DB_DIR/bad.db")" -eq 2 ] || fail "the failed file was not retried"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|bad.db|"
ok "opening a file that failed again retries it in the same window"

# A window comparing B with A shows B's file, but is not B's window.
WID=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^ascend_pytorch_profiler_1.db\$" | head -1)
xdotool windowfocus --sync "$WID"
xdotool key ctrl+d
DIALOG=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^Compare with a Profiler Database\$" | head -1)
[ -n "$DIALOG" ] || fail "Ctrl+D shows no compare dialog"
wait_focus "$DIALOG"
xdotool type --delay 20 "$A"
xdotool key Return
wait_state page=graph mode=diff "file=$B" "compared=$A"
# The chooser made A the latest recent file; B, opened again, must be it
# once more for the start page below.
poll 10 recent_is "$A" || fail "the chooser's file is not the latest recent file: $(latest_recent)"
launch "$B"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|ascend_pytorch_profiler_1.db ↔ ascend_pytorch_profiler_0.db|bad.db|"
poll 10 recent_is "$B" || fail "B opened again is not the latest recent file: $(latest_recent)"
ok "a file whose window now compares it opens in a window of its own"
stop_app

# Recent files are saved from an idle; a new instance reads them back.
poll 10 n_recent_at_least 2
start_app
wait_state page=empty recent=2
grep -qF "bad.db" "$XDG_DATA_HOME/recently-used.xbel" && fail "a file that failed to load is a recent file"
WID=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^Ascend Flame Graph\$" | head -1)
[ -n "$WID" ] || fail "no start page window"
xdotool windowfocus --sync "$WID"
wait_focus "$WID"
barrier
xdotool key Return
wait_state page=graph "file=$B"
expect_windows "ascend_pytorch_profiler_1.db|"
ok "the start page lists the recent profiles; Enter reopens the last one"

# shortcuts_by KEY: KEY, pressed in the profile's window, shows the
# shortcuts window, which Esc closes. It has no title of its own: GTK
# names it after the application.
shortcuts_by () {
  local main help
  main=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^ascend_pytorch_profiler_1.db\$" | head -1)
  xdotool windowfocus --sync "$main"
  wait_focus "$main"
  xdotool key "$1"
  expect_windows "Ascend Flame Graph|ascend_pytorch_profiler_1.db|"
  help=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^Ascend Flame Graph\$" | head -1)
  [ -n "$help" ] || fail "$1 shows no shortcuts window"
  xdotool windowfocus --sync "$help"
  wait_focus "$help"
  xdotool key Escape
  expect_windows "ascend_pytorch_profiler_1.db|"
}
shortcuts_by ctrl+question
shortcuts_by F1
ok "Ctrl+? and F1 show the shortcuts window, Esc closes it"

WID=$(timeout 10 xdotool search --sync --onlyvisible --all --pid "$PID" --name "^ascend_pytorch_profiler_1.db\$" | head -1)
xdotool windowsize --sync "$WID" 900 600
barrier
xdotool key ctrl+q
poll 10 app_gone || fail "Ctrl+Q did not quit"
wait "$PID"
RC=$?
PID=
[ $RC -eq 0 ] || fail "Ctrl+Q quit with status $RC"
KEYFILE=$XDG_CONFIG_HOME/glib-2.0/settings/keyfile
grep -q '^window-width=900$' "$KEYFILE" || fail "Ctrl+Q did not save the window size: $(cat "$KEYFILE" 2>&1)"
ok "Ctrl+Q quits with status 0 and saves the window size"
echo "1..$N"
