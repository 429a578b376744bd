#!/bin/bash
# SPDX-License-Identifier: MIT
# One instance per session: later launches hand their files to the first
# one over D-Bus, a file already open brings its window forward, and the
# start page lists recent profiles. Runs under xvfb-run and
# dbus-run-session. Usage: test-instance.sh ASCEND_FLAMEGRAPH MAKE_TEST_DB
set -u

EXE=$1
MAKE_DB=$2
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
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || fail "no session bus: run under dbus-run-session"
export XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config XDG_CACHE_HOME=$WORK/cache
export G_MESSAGES_DEBUG="afg-application afg-window" LC_ALL=C.UTF-8

start_primary () {
  : > "$LOG"
  "$EXE" "$@" > "$LOG" 2>&1 &
  PID=$!
}

stop_primary () {
  kill "$PID" 2>/dev/null
  wait "$PID" 2>/dev/null
  PID=
}

# launch FILE...: a second launch must hand over and exit at once.
launch () {
  timeout 10 "$EXE" "$@" > "$WORK/second.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || fail "a second launch exited with $rc: $(head -3 "$WORK/second.log")"
  kill -0 "$PID" 2>/dev/null || fail "the first instance died"
}

# wait_log COUNT PATTERN: waits up to 10 s for COUNT lines holding PATTERN.
wait_log () {
  for _ in $(seq 100); do
    [ "$(grep -cF -- "$2" "$LOG")" -ge "$1" ] && return 0
    sleep 0.1
  done
  fail "the log never showed '$2' $1 time(s)"
}

# The first instance's visible titled windows (GDK also maps untitled
# helper windows), sorted.
windows () {
  for w in $(xdotool search --onlyvisible --pid "$PID" '' 2>/dev/null); do
    xdotool getwindowname "$w"
  done | grep -v '^$' | sort | tr '\n' '|'
}

# expect_windows LIST: the visible windows settle on LIST within 5 s.
expect_windows () {
  for _ in $(seq 50); do
    [ "$(windows)" = "$1" ] && return 0
    sleep 0.1
  done
  fail "windows are '$(windows)', expected '$1'"
}

DB=$("$MAKE_DB") || fail "could not build the test DB"
DB_DIR=$(dirname "$DB")
A=$DB_DIR/ascend_pytorch_profiler_0.db
B=$DB_DIR/ascend_pytorch_profiler_1.db
[ "$DB" = "$A" ] || mv "$DB" "$A"
cp "$A" "$B"
printf 'not a database\n' > "$DB_DIR/bad.db"

start_primary
wait_log 1 "recent files: 0"
expect_windows "Ascend Flame Graph|"
ok "a launch without files shows the start page"

launch "$A"
wait_log 1 "open ascend_pytorch_profiler_0.db: in an open window"
wait_log 1 "state: graph"
expect_windows "ascend_pytorch_profiler_0.db|"
ok "a second launch with a file loads it into the start page's window"

launch "$B"
wait_log 1 "open ascend_pytorch_profiler_1.db: in a new window"
wait_log 2 "state: graph"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|"
ok "another file opens in a new window of the same instance"

launch "$A"
wait_log 1 "open ascend_pytorch_profiler_0.db: already open"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|"
[ "$(grep -cF "loading $A" "$LOG")" -eq 1 ] || fail "the open file was loaded again"
ok "a file already open brings its window forward, not a second copy"

launch "$DB_DIR/bad.db"
wait_log 1 "state: error:"
launch "$DB_DIR/bad.db"
wait_log 1 "open bad.db: in an open window"
wait_log 2 "state: error:"
expect_windows "ascend_pytorch_profiler_0.db|ascend_pytorch_profiler_1.db|bad.db|"
ok "opening a file that failed again retries it in the same window"
stop_primary

# Recent files are saved from an idle; a new instance reads them back.
for _ in $(seq 50); do
  [ "$(grep -c '<bookmark ' "$XDG_DATA_HOME/recently-used.xbel" 2>/dev/null)" -ge 2 ] && break
  sleep 0.1
done
start_primary
wait_log 1 "recent files: 2"
grep -qF "bad.db" "$XDG_DATA_HOME/recently-used.xbel" && fail "a file that failed to load is a recent file"
WID=$(timeout 10 xdotool search --sync --onlyvisible --pid "$PID" --name "^Ascend Flame Graph\$" | head -1)
[ -n "$WID" ] || fail "no start page window"
xdotool windowfocus --sync "$WID"
sleep 0.3
xdotool key Return
wait_log 1 "loading $B"
wait_log 1 "state: graph"
expect_windows "ascend_pytorch_profiler_1.db|"
ok "the start page lists the recent profiles; Enter reopens the last one"

xdotool key ctrl+question
HELP=$(timeout 10 xdotool search --sync --onlyvisible --pid "$PID" --name "^Shortcuts\$" | head -1)
[ -n "$HELP" ] || fail "Ctrl+? shows no shortcuts window"
xdotool key --window "$HELP" Escape
expect_windows "ascend_pytorch_profiler_1.db|"
ok "Ctrl+? shows the shortcuts window, Esc closes it"

xdotool key ctrl+q
for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$PID" 2>/dev/null && fail "Ctrl+Q did not quit"
wait "$PID"
RC=$?
PID=
[ $RC -eq 0 ] || fail "Ctrl+Q quit with status $RC"
ok "Ctrl+Q quits with status 0"
echo "1..$N"
