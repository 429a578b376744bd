#!/bin/bash
# SPDX-License-Identifier: MIT
# What the window says about the numbers of a real sample, under the real
# pointer (run under xvfb-run): the threads are named by their role as
# the CLI's JSON names them ("main · pid/tid").
# Usage: test-numbers-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

DB=${AFG_SAMPLES_DIR:?}/ascend_pytorch_profiler_level1_rank0.db
"$EXE" --export -q -f json -o "$WORK/cli" "$DB" || fail "the CLI failed"
# label role, one line per thread.
ROLES=$(python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["threads"]:
    print(t["label"], t.get("role", ""))' "$WORK/cli/flamegraph.json")
[ "$(wc -l <<< "$ROLES")" -eq 3 ] || fail "the sample should have three threads: $ROLES"

start_app "$DB"
wait_state page=graph
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$DB")\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"

# The tooltip's popup can take the pointer away for a moment: read hover
# and tooltip from one state line, into TIP.
tooltip_of () {
  local line
  line=$(last_state | tr '\t' '\n')
  [ "$(sed -n 's/^hover=//p' <<< "$line")" = "$1" ] || return 1
  TIP=$(sed -n 's/^tooltip=//p' <<< "$line")
}

# The thread row sits right above the root ("All threads", the bottom
# row): along it, every thread's tooltip is titled with its role.
SEEN=
for y in $(seq $((HEIGHT - 10)) -2 $((HEIGHT - 160))); do
  hover_at "$WID" $((WIDTH / 2)) "$y"
  case "$(state_field hover)" in [0-9]*/[0-9]*) break ;; esac
done
for x in $(seq 4 8 $((WIDTH - 4))); do
  hover_at "$WID" "$x" "$y"
  LABEL=$(state_field hover)
  case "$LABEL" in [0-9]*/[0-9]*) ;; *) continue ;; esac
  case " $SEEN " in *" $LABEL "*) continue ;; esac
  ROLE=$(sed -n "s|^$LABEL ||p" <<< "$ROLES")
  [ -n "$ROLE" ] || fail "thread $LABEL has no role in the JSON"
  TIP=
  poll 5 tooltip_of "$LABEL" || fail "no tooltip for thread $LABEL"
  case "$TIP" in
    "$ROLE · $LABEL "*) ;;
    *) fail "the tooltip of thread $LABEL is not titled '$ROLE · $LABEL': $TIP" ;;
  esac
  SEEN="$SEEN $LABEL"
done
[ "$(wc -w <<< "$SEEN")" -ge 1 ] || fail "no thread frame found above the root"
ok "the threads' tooltips are titled by role as the JSON names them:$SEEN"

echo "1..$N"
