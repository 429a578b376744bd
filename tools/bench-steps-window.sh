#!/bin/bash
# The window's click-to-redraw time for the step strip: starts
# the app under Xvfb on the synthetic DB of ROWS rows (tools/afg-gen-db,
# 22 steps at 1M rows), clicks every step of the strip with xdotool, then
# a shift-click range, a drag and Esc, and prints each "drawn N ms after
# the click" line the steps bar logs (G_MESSAGES_DEBUG=afg-steps-bar: from the
# strip's click handling to the first frame painted with the new tree's
# layout), then their median and maximum. Then the same for "While NPU
# idle" turned on and off, and for one transform added and taken out
# (through the test control channel, docs/test-state-line.md). Last, the
# window's peak and current RSS.
# Usage: tools/bench-steps-window.sh BUILD_DIR [ROWS]   (default 1000000)
set -euo pipefail
build=$(realpath "${1:?usage: tools/bench-steps-window.sh BUILD_DIR [ROWS]}")
rows=${2:-1000000}
work=${AFG_BENCH_DIR:-/tmp/afg-bench}
# shellcheck source=tools/bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
db="$work/synthetic-v2-$rows.db"
ensure_db "$db" "$rows"
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s '-noreset -screen 0 1280x800x24' "$0" "$build" "$rows"
fi

log=$(mktemp)
fifo=$(mktemp -u)
mkfifo "$fifo"
tab=$(printf '\t')
GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none AFG_TEST_STATE=1 AFG_TEST_CONTROL=1 G_MESSAGES_DEBUG=afg-window,afg-steps-bar \
  XDG_DATA_HOME=$(mktemp -d) "$build/src/ascend-flamegraph" "$db" <"$fifo" >"$log" 2>&1 &
app=$!
exec 9>"$fifo"
trap 'kill $app 2>/dev/null; rm -f "$log" "$fifo"' EXIT
field () { grep -a '^afg-state' "$log" | tail -1 | tr '\t' '\n' | sed -n "s/^$1=//p"; }
for _ in $(seq 300); do grep -aq "${tab}page=graph$tab" "$log" && break; sleep 0.1; done
wid=$(timeout 10 xdotool search --sync --onlyvisible --name "$(basename "$db")" | head -1)
xdotool windowsize "$wid" 1200 720
sleep 1

# Each step's bar: where the pointer hovers it (the state line's "step").
declare -A at
y=
for try in $(seq 40 2 160); do
  xdotool mousemove --window "$wid" 30 "$try"; sleep 0.03
  [ -n "$(field step)" ] && y=$try && break
done
[ -n "$y" ] || { echo "no step strip found" >&2; exit 1; }
for x in $(seq 0 3 1200); do
  xdotool mousemove --window "$wid" "$x" "$y"; sleep 0.02
  s=$(field step)
  [ -n "$s" ] && [ -z "${at[$s]:-}" ] && at[$s]=$((x + 2))
done
ids=$(printf '%s\n' "${!at[@]}" | sort -n)
first=$(head -1 <<< "$ids"); last=$(tail -1 <<< "$ids")
mid=$(sed -n "$(( ($(wc -l <<< "$ids") + 1) / 2 ))p" <<< "$ids")
for s in $ids; do
  xdotool mousemove --window "$wid" "${at[$s]}" "$y" click 1; sleep 1
done
xdotool mousemove --window "$wid" "${at[$first]}" "$y" click 1; sleep 1
xdotool mousemove --window "$wid" "${at[$last]}" "$y" keydown shift click 1 keyup shift; sleep 1
xdotool mousemove --window "$wid" "${at[$last]}" "$y" mousedown 1 mousemove --window "$wid" "${at[$mid]}" "$y" mouseup 1; sleep 1
xdotool key Escape; sleep 1.5
# summary WHAT FROM: the redraws logged after line FROM of the log.
summary () {
  tail -n +"$2" "$log" | grep -a ' drawn ' | sed 's/.*DEBUG: [0-9:.]*: //'
  tail -n +"$2" "$log" | grep -a ' drawn ' | sed 's/.* drawn \([0-9.]*\) ms.*/\1/' | sort -n \
    | awk -v what="$1" '{ v[NR] = $1 } END { printf "%s: %d redraws: median %.1f ms, max %.1f ms\n", what, NR, v[int((NR + 1) / 2)], v[NR] }'
}
summary steps 1

# While NPU idle, on and off, three times; then one transform, added and
# taken out, three times.
from=$(( $(wc -l < "$log") + 1 ))
for _ in 1 2 3; do
  echo "action win.npu-idle" >&9; sleep 1.5
  echo "action win.npu-idle" >&9; sleep 1.5
done
summary "npu-idle" "$from"
from=$(( $(wc -l < "$log") + 1 ))
for _ in 1 2 3; do
  echo "action win.add-transform ('merge-function', '/^aten::/')" >&9; sleep 1.5
  echo "action win.pop-transform" >&9; sleep 1.5
done
summary "transform" "$from"
awk '/^VmHWM:/ { peak = $2 } /^VmRSS:/ { now = $2 } END { printf "window RSS: peak %.0f MB, now %.0f MB\n", peak / 1024, now / 1024 }' \
  "/proc/$app/status"
