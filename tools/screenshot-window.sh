#!/bin/bash
# SPDX-License-Identifier: MIT
# Renews the window screenshots of docs/ that no test makes: the NPU
# weight, the step strip and its device split, transforms and a job
# folder's rank sidebar. Each scene is the real binary under Xvfb, its
# window 1200x720, driven through the test control channel and saved once
# its state line says it is drawn (tests/gui/e2e-lib.sh).
# Usage: xvfb-run -a -s "-noreset -screen 0 1280x800x24" tools/screenshot-window.sh BUILD_DIR [OUT_DIR]
set -u
BUILD=${1:?usage: tools/screenshot-window.sh BUILD_DIR [OUT_DIR]}
OUT=$(realpath "${2:-$(dirname "$0")/../docs}")
EXE=$(realpath "$BUILD/src/ascend-flamegraph")
GEN_DB=$(realpath "$BUILD/tools/afg-gen-db")
SAMPLES=$(realpath "$(dirname "$0")/../tests/data")
. "$(dirname "$0")/../tests/gui/e2e-lib.sh"

DB_DIR=$(mktemp -d)
STEPS_DB=$DB_DIR/steps.db
"$GEN_DB" --steps 8 --slow-step 5 "$STEPS_DB" 40000 >/dev/null || fail "afg-gen-db failed"
JOB=$DB_DIR/job
for rank in 0 1 2 3 4 5 6 7; do
  db=$JOB/host_${rank}_20261206000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$rank.db
  mkdir -p "$(dirname "$db")"
  "$GEN_DB" --steps 4 --rank "$rank" --ranks 8 --late-rank 5 --late-ns 3000000 "$db" 30000 >/dev/null \
    || fail "afg-gen-db failed"
done

# shot NAME: the window, once everything before it took effect.
shot () {
  barrier
  import -window "$WID" "$OUT/$1" || fail "import failed for $1"
  ok "$1"
}

# scene TITLE ARGS…: the app on ARGS, its window (named TITLE) 1200x720,
# its first graph drawn.
scene () {
  local title=$1
  shift
  [ -n "$PID" ] && stop_app
  start_app "$@"
  wait_state page=graph
  WID=$(timeout 10 xdotool search --sync --onlyvisible --name "$title" | head -1)
  [ -n "$WID" ] || fail "no window named $title"
  xdotool windowmove --sync "$WID" 0 0 windowsize --sync "$WID" 1200 720
  barrier
}

scene level1_rank0 "$SAMPLES/ascend_pytorch_profiler_level1_rank0.db"
act win.weight "'npu'"
wait_state weight=npu
shot screenshot-window-npu.png

scene steps.db "$STEPS_DB"
wait_state strip=8
shot screenshot-window-steps.png
act win.npu-idle
wait_state idle=1
shot screenshot-window-timeline.png

scene level1_rank0 "$SAMPLES/ascend_pytorch_profiler_level1_rank0.db"
act win.add-transform "('merge-function', '/^aclnn/')"
act win.add-transform "('drop-function', 'aten::to')"
barrier
shot screenshot-window-transforms.png

scene job "$JOB"
wait_state ranks=8/8
shot screenshot-window-ranks.png

stop_app
