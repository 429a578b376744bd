#!/bin/bash
# SPDX-License-Identifier: MIT
# The stack chart's costs in the window, under Xvfb at 1920×1080 on the
# synthetic DB of one step (tools/afg-gen-db --steps 1, ROWS rows):
# the window's load (wall time from the start to the flame graph, and
# the RSS then: the tasks kept for the chart included), opening the chart
# (win.layout 'chart': the store built in a worker from the tasks the
# load kept, the first frame drawn; wall and CPU time from the action to
# that frame), the store's bytes per task and per row, the process's RSS
# before and after, and the frames while the view zooms in and out and
# pans (win.chart-zoom, win.chart-pan through the test control channel,
# docs/test-state-line.md): each frame's time from the frame clock's
# before-paint phase to the end of its drawing and rendering, as the widget
# logs it (G_MESSAGES_DEBUG=afg-stack-chart), median and maximum, and the
# CPU time of the UI thread in the frame and in the drawing alone; then
# the chart shown again, once read, from the flame graph alone.
# Usage: tools/bench-stack-chart.sh BUILD_DIR [ROWS]   (default 1000000)
set -euo pipefail
build=$(realpath "${1:?usage: tools/bench-stack-chart.sh BUILD_DIR [ROWS]}")
rows=${2:-1000000}
work=${AFG_BENCH_DIR:-/tmp/afg-bench}
db="$work/synthetic-1step-$rows.db"
mkdir -p "$work"
[ -f "$db" ] || "$build/tools/afg-gen-db" --steps 1 "$db" "$rows" >/dev/null
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s '-noreset -screen 0 1920x1080x24' "$0" "$build" "$rows"
fi

log=$(mktemp)
fifo=$(mktemp -u)
mkfifo "$fifo"
tab=$(printf '\t')
GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GDK_DEBUG=gl-disable AFG_TEST_STATE=1 AFG_TEST_CONTROL=1 \
  G_MESSAGES_DEBUG=afg-stack-chart,afg-window XDG_DATA_HOME=$(mktemp -d) XDG_CONFIG_HOME=$(mktemp -d) \
  "$build/src/ascend-flamegraph" "$db" <"$fifo" >"$log" 2>&1 &
app=$!
started=$EPOCHREALTIME
exec 9>"$fifo"
trap 'kill $app 2>/dev/null; rm -f "$log" "$fifo"' EXIT
seq=0
# Each wait reads only what the log gained since its request: grepping the
# whole log every poll slows the script down as the log grows.
size () { stat -c %s "$log"; }
since () { tail -c +$(($1 + 1)) "$log"; }
barrier () { local at; at=$(size); seq=$((seq + 1)); echo "barrier $seq" >&9
             until since "$at" | grep -aq "${tab}seq=$seq$tab\|${tab}seq=$seq\$"; do sleep 0.01; done; }
first_frame () { until since "$1" | grep -aq 'chart frame'; do sleep 0.005; done; }
rss () { awk '/^VmRSS/ { print $2 }' "/proc/$app/status"; }
process_cpu () { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15) * 1000 / hz }' "/proc/$app/stat"; }
frames () { tail -n +"$1" "$log" | grep -a 'chart frame' | sed 's/.*chart frame \([0-9.]*\) ms.*/\1/'; }
drawing () { tail -n +"$1" "$log" | grep -a 'chart frame' | sed 's/.*drawn in \([0-9.]*\) ms.*/\1/'; }
frame_cpu () { tail -n +"$1" "$log" | grep -a 'chart frame' | sed 's/.*CPU \([0-9.]*\) ms.*/\1/'; }
cpu_drawing () { tail -n +"$1" "$log" | grep -a 'chart frame' | sed 's/.*CPU .*drawing \([0-9.]*\) ms.*/\1/'; }
stats () { sort -n | awk -v what="$1" '{ v[NR] = $1 } END {
  printf "%s: %d frames, median %.1f ms, max %.1f ms\n", what, NR, v[int((NR + 1) / 2)], v[NR] }'; }

for _ in $(seq 6000); do grep -aq "${tab}page=graph$tab" "$log" && break; sleep 0.01; done
loaded=$EPOCHREALTIME
echo "load: $(awk -v a="${started/,/.}" -v b="${loaded/,/.}" 'BEGIN { printf "%.0f", (b - a) * 1000 }') ms" \
     "from the start to the flame graph, rss $(rss) kB"
grep -a 'loaded in' "$log" | sed 's/.*DEBUG: [0-9:.]*: /  /'
wid=$(timeout 10 xdotool search --sync --onlyvisible --name "$(basename "$db")" | head -1)
xdotool windowsize --sync "$wid" 1920 1080
barrier
before=$(rss)
at=$(size)
cpu0=$(process_cpu)
t0=$EPOCHREALTIME
echo "action win.layout 'chart'" >&9
first_frame "$at"
t1=$EPOCHREALTIME
cpu1=$(process_cpu)
barrier
echo "open: $(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.0f", (b - a) * 1000 }') ms from the action to the first frame," \
     "$((cpu1 - cpu0)) ms CPU"
grep -a 'chart tasks read\|chart store' "$log" | sed 's/.*DEBUG: [0-9:.]*: /  /'
store=$(grep -a 'chart store' "$log" | tail -1)
tasks=$(sed 's/.*: \([0-9]*\) tasks in \([0-9]*\) B, rows in \([0-9]*\) B.*/\1 \2 \3/' <<< "$store")
read -r n_tasks task_bytes row_bytes <<< "$tasks"
used=$(sqlite3 "$db" "SELECT count(*) FROM PYTORCH_API")
echo "bytes: $(awk -v b="$task_bytes" -v n="$n_tasks" 'BEGIN { printf "%.1f", b / n }') a task ($n_tasks tasks)," \
     "$(awk -v b="$row_bytes" -v n="$used" 'BEGIN { printf "%.1f", b / n }') a host row ($used rows)"
echo "rss: $before kB before, $(rss) kB with the chart shown"

from=$(( $(wc -l < "$log") + 1 ))
for _ in $(seq 12); do echo "action win.chart-zoom 1.6" >&9; barrier; done
for _ in $(seq 12); do echo "action win.chart-zoom 0.625" >&9; barrier; done
frames "$from" | stats zoom
drawing "$from" | stats "zoom, drawing alone"
frame_cpu "$from" | stats "zoom, the frame's CPU"
cpu_drawing "$from" | stats "zoom, the drawing's CPU"
from=$(( $(wc -l < "$log") + 1 ))
echo "action win.chart-zoom 8.0" >&9; barrier
for _ in $(seq 40); do echo "action win.chart-pan 0.05" >&9; barrier; done
echo "action win.chart-home" >&9; barrier
for _ in $(seq 40); do echo "action win.chart-pan 0.05" >&9; barrier; done
frames "$from" | stats pan
drawing "$from" | stats "pan, drawing alone"
frame_cpu "$from" | stats "pan, the frame's CPU"
cpu_drawing "$from" | stats "pan, the drawing's CPU"

# Shown again once read: the flame graph alone, then the chart.
echo "action win.layout 'flame'" >&9; barrier
at=$(size)
t0=$EPOCHREALTIME
echo "action win.layout 'chart'" >&9
first_frame "$at"
t1=$EPOCHREALTIME
echo "shown again: $(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.0f", (b - a) * 1000 }') ms from the action to the first frame"
