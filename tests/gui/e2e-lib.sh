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

# wait_log PATTERN [COUNT]: waits up to 10 s for COUNT (default 1) lines of
# the debug log holding the fixed string PATTERN.
wait_log () {
  for _ in $(seq 100); do
    [ "$(grep -cF -- "$1" "$LOG")" -ge "${2:-1}" ] && return 0
    sleep 0.1
  done
  fail "the log never showed '$1' ${2:-1} time(s)"
}
