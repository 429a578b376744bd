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

start_app () {
  : > "$LOG"
  "$EXE" "$@" > "$LOG" 2>&1 &
  PID=$!
}

stop_app () {
  kill "$PID" 2>/dev/null
  wait "$PID" 2>/dev/null
  PID=
}

# The app's state lines (docs/test-state-line.md): one per change,
# "afg-state" then TAB-separated KEY=VALUE fields.
export AFG_TEST_STATE=1
TAB=$(printf '\t')

# last_state: the newest state line, its fields between TABs.
last_state () {
  printf '%s%s' "$(grep '^afg-state' "$LOG" | tail -1)" "$TAB"
}

# has_fields LINE KEY=VALUE...: every given field is in LINE, exactly.
has_fields () {
  local line=$1
  shift
  for f in "$@"; do
    case "$line" in *"$TAB$f$TAB"*) ;; *) return 1 ;; esac
  done
}

# wait_state KEY=VALUE...: waits up to 10 s until the newest state line
# holds every given field.
wait_state () {
  for _ in $(seq 100); do
    has_fields "$(last_state)" "$@" && return 0
    sleep 0.1
  done
  fail "the state never reached '$*' (last: $(last_state | tr '\t' ' '))"
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
    for _ in $(seq 30); do
      has_fields "$(last_state)" "$@" && return 0
      sleep 0.1
    done
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
