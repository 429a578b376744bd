#!/bin/bash
# SPDX-License-Identifier: MIT
# What the window says about the numbers of a real sample, under the real
# pointer (run under xvfb-run): the threads are named by their role as
# the CLI's JSON names them ("main · pid/tid"); on a DB of
# tools/afg-gen-db with 8 steps, the status line's device time is the
# scope's when a step is picked or Per step is on.
# Usage: test-numbers-window.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
. "$(dirname "$0")/strip-lib.sh"

# fmt NS: the window's text of a duration (src/core/util/afg-format.c).
fmt () {
  python3 -c '
import sys
a = abs(int(sys.argv[1]))
sign = "\u2212" if int(sys.argv[1]) < 0 else ""
if a < 1000:
    print("%s%d ns" % (sign, a)); sys.exit()
for unit, step, digits in (("µs", 1e2, 1), ("ms", 1e4, 2), ("s", 1e6, 3)):
    scaled = int(a / step + 0.5)
    if scaled < 1000 * 10 ** digits or unit == "s":
        print("%s%d.%0*d %s" % (sign, scaled // 10 ** digits, digits, scaled % 10 ** digits, unit)); break' "$1"
}

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

stop_app

# The status line's device time: the DB's linked and unlinked time for
# the whole profile; the step's when one is picked; per step with Per step.
steps_db 4000
start_app "$DB"
wait_state page=graph scope= strip=8
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^steps.db\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"
ALL_NPU=$(state_field npu_ns)
case "$(state_field status)" in
  *"NPU $(fmt "$ALL_NPU") linked ("*" tasks), "*" unlinked ("*) ;;
  *) fail "the whole profile's status line lacks the DB's device time $(fmt "$ALL_NPU"): $(state_field status)" ;;
esac
find_strip "$WID" "$WIDTH"
xdotool mousemove --window "$WID" "$(bar 2)" "$STRIP_Y" click 1
wait_state scope=2
STEP_NPU=$(state_field npu_ns)
[ "$STEP_NPU" -lt "$ALL_NPU" ] || fail "step 2's device time $STEP_NPU is not a part of the whole $ALL_NPU"
case "$(state_field status)" in
  *"NPU $(fmt "$STEP_NPU") linked ("*" tasks) · "*) ;;
  *) fail "step 2's status line lacks its device time $(fmt "$STEP_NPU"): $(state_field status)" ;;
esac
ok "the status line's device time is step 2's ($(fmt "$STEP_NPU")) once it is picked"
# Two durations of a step, each named: the threads' host time added up
# (the status line) is not the step's wall time (the strip).
case "$(state_field status)" in
  "step 2 (1 of 8 steps, $(fmt "$(state_field root_ns)") host time on all threads) · "*) ;;
  *) fail "the status line does not name step 2's host time on all threads: $(state_field status)" ;;
esac
ok "the status line says step 2's $(fmt "$(state_field root_ns)") is host time on all threads"
xdotool key Escape
wait_state scope= "npu_ns=$ALL_NPU"
xdotool key Tab space
wait_state perstep=1 divisor=8
case "$(state_field status)" in
  *"NPU $(fmt $((ALL_NPU / 8))) / step linked ("*" tasks / step) · "*) ;;
  *) fail "with Per step the status line lacks $(fmt $((ALL_NPU / 8))) / step: $(state_field status)" ;;
esac
ok "with Per step on, the status line's device time is per step ($(fmt $((ALL_NPU / 8))) / step)"

echo "1..$N"
