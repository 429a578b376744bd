#!/bin/bash
# Core loader benchmark: prints, for a 1M-row and a 10M-row synthetic DB,
# the seconds of `--export -f json`, of SQLite's floor (reading and
# converting exactly the host columns we need), their ratio, peak RSS, and
# the NPU yardstick: one sqlite3 run scanning every column the
# export reads with device time on, PYTORCH_API's six, TASK's three and
# CONNECTION_IDS's two (scan_s), and the export's ratio to it.
# Each figure is the best of RUNS runs (machines are shared and noisy);
# cpu_s is the user + system seconds of the best export run, which a
# loaded machine disturbs less than wall time. paired is the median, over
# RUNS rounds, of one export's seconds over one scan's run right after it
# (tools/bench-lib.sh says why). The targets (docs/benchmarks.md):
# ex/scan <= 0.80 at 1M and 5M rows and peak RSS <= 350 MB at 5M; and
# the page at most 15 % bigger with NPU data (printed for
# sizes up to 1M rows, with what the device timeline adds to it and the
# page of --npu-idle), and at most 20 % bigger with the device kinds.
# With RANKS=ROWS set (the job target uses RANKS=1000000), a last section runs
# tools/bench-ranks.sh with eight ranks of ROWS rows: a job folder's
# --export against the sum of its ranks' single exports (a few minutes
# more, the first time its DBs are generated).
# Usage: tools/bench-core.sh BUILD_DIR [ROWS...]   (default: 1000000 10000000; 5000000 is
# the other size the targets quote)
set -euo pipefail
build=${1:?usage: tools/bench-core.sh BUILD_DIR [ROWS...]}
shift
sizes=("$@")
[ $# -eq 0 ] && sizes=(1000000 10000000)
runs=${RUNS:-5}
# shellcheck source=tools/bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
work=${AFG_BENCH_DIR:-/tmp/afg-bench}
mkdir -p "$work"
query='select total(cast(startNs as integer)), total(cast(endNs as integer)), total(globalTid), total(name), total(type) from PYTORCH_API'
# One string, the three statements of one sqlite3 run: an array passed
# as "$scan" would expand to its first element alone, and scan_s would
# time PYTORCH_API alone, a fifth less work than the export's yardstick.
scan='select total(cast(startNs as integer)), total(cast(endNs as integer)), total(globalTid), total(connectionId), total(name), total(type) from PYTORCH_API;
select total(startNs), total(endNs), total(connectionId), total(globalTaskId), total(taskType) from TASK;
select total(id), total(connectionId) from CONNECTION_IDS;
select total(startNs), total(endNs), total(connectionId), total(opName), total(groupName) from COMMUNICATION_OP;
select total(globalTaskId), total(name) from COMPUTE_TASK_INFO;
select total(globalTaskId) from COMMUNICATION_TASK_INFO;'

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

core_speeds
printf '%-10s %10s %10s %7s %12s %10s %10s %10s %9s %8s %8s\n' rows export_s floor_s ratio peak_rss_MB nodes \
  tasks scan_s ex/scan paired cpu_s
for rows in "${sizes[@]}"; do
  # v2: DBs of the generator before TASK rows were written would scan nothing.
  db="$work/synthetic-v2-$rows.db"
  ensure_db "$db" "$rows"
  out=$(mktemp -d)
  read -r ex_s ex_kb ex_cpu < <(best "$build/src/ascend-flamegraph" --export -q -f json -o "$out" "$db")
  read -r fl_s _ < <(best sqlite3 "file:$db?immutable=1" "$query")
  read -r sc_s _ < <(best sqlite3 "file:$db?immutable=1" "$scan")
  ratios=()
  for _ in $(seq "$runs"); do
    e=$(wall "$build/src/ascend-flamegraph" --export -q -f json -o "$out" "$db")
    ratios+=("$(ratio "$e" "$(wall sqlite3 "file:$db?immutable=1" "$scan")")")
  done
  nodes=$(grep -o '"name":' "$out/flamegraph.json" | wc -l)
  tasks=$(sqlite3 "file:$db?immutable=1" 'select count(*) from TASK')
  rm -rf "$out"
  printf '%-10s %10s %10s %7.2f %12.1f %10s %10s %10s %9.2f %8s %8s\n' "$rows" "$ex_s" "$fl_s" "$(ratio "$ex_s" "$fl_s")" \
    "$(awk -v k="$ex_kb" 'BEGIN { print k / 1024 }')" "$nodes" "$tasks" "$sc_s" "$(ratio "$ex_s" "$sc_s")" \
    "$(median "${ratios[@]}")" "$ex_cpu"
done

# The page may grow by at most 15 % with NPU data. The same
# profile without the device side (--no-npu: the same call trees and
# times) against the one with it; sizes above 1M rows are skipped, a
# second DB of 5M or 10M rows costs minutes and gigabytes.
page_bytes() { # the size of the page exported from DB $1
  local dir bytes
  dir=$(mktemp -d)
  "$build/src/ascend-flamegraph" --export -q -o "$dir" "$1" >/dev/null
  bytes=$(stat -c %s "$dir/flamegraph.html")
  rm -rf "$dir"
  echo "$bytes"
}
for rows in "${sizes[@]}"; do
  [ "$rows" -le 1000000 ] || continue
  host_db="$work/synthetic-nonpu-$rows.db"
  ensure_db "$host_db" "$rows" --no-npu
  host=$(page_bytes "$host_db")
  npu=$(page_bytes "$work/synthetic-v2-$rows.db")
  printf 'page, %s rows: %s bytes without NPU data, %s with it: %+.1f %% (the target: at most +15 %%)\n' \
    "$rows" "$host" "$npu" "$(awk -v a="$npu" -v b="$host" 'BEGIN { print (a / b - 1) * 100 }')"
done

# The device kinds' share of the page: its kernel leaves and their names
# (all the page holds of the kinds) against the rest of the same page.
for rows in "${sizes[@]}"; do
  dir=$(mktemp -d)
  "$build/src/ascend-flamegraph" --export -q -o "$dir" "$work/synthetic-v2-$rows.db" >/dev/null
  total=$(stat -c %s "$dir/flamegraph.html")
  kinds=$(grep -o ',"kernels":"[^"]*","kernel_names":\[[^]]*\]' "$dir/flamegraph.html" | wc -c)
  rm -rf "$dir"
  printf 'page, %s rows: the kinds take %s of its %s bytes: %+.1f %% over the page without them (the target: at most +20 %%)\n' \
    "$rows" "$kinds" "$total" "$(awk -v t="$total" -v k="$kinds" 'BEGIN { print (t / (t - k) - 1) * 100 }')"
done

# The device timeline in the page: the bytes of steps[].device and
# device_timeline in the data block of a 20-step profile, and the page of
# --npu-idle, which holds the idle tree beside the whole one.
for rows in "${sizes[@]}"; do
  [ "$rows" -le 1000000 ] || continue
  steps_db="$work/synthetic-steps20-$rows.db"
  ensure_db "$steps_db" "$rows" --steps 20
  dir=$(mktemp -d)
  "$build/src/ascend-flamegraph" --export -q -o "$dir/whole" "$steps_db" >/dev/null
  "$build/src/ascend-flamegraph" --export -q --npu-idle -o "$dir/idle" "$steps_db" >/dev/null
  whole=$(stat -c %s "$dir/whole/flamegraph.html")
  idle=$(stat -c %s "$dir/idle/flamegraph.html")
  device=$(grep -o ',"device":{[^}]*}\|,"device_timeline":{[^}]*}' "$dir/whole/flamegraph.html" | tr -d '\n' | wc -c)
  printf 'page, %s rows, 20 steps: the device timeline takes %s of its %s bytes (%.2f %%); with --npu-idle %s bytes (%+.1f %%)\n' \
    "$rows" "$device" "$whole" "$(awk -v a="$device" -v b="$whole" 'BEGIN { print a / b * 100 }')" "$idle" \
    "$(awk -v a="$idle" -v b="$whole" 'BEGIN { print (a / b - 1) * 100 }')"
  rm -rf "$dir"
done

# Trees rebuilt from a loaded document's event store, no DB access: the
# whole profile and one step (what the window does on a step click).
for rows in "${sizes[@]}"; do
  echo "rebuild from the event store, $rows rows:"
  "$build/tools/afg-bench-tree" "$work/synthetic-v2-$rows.db" "$runs"
done

if [ -n "${RANKS:-}" ]; then
  echo "job folder of eight ranks, $RANKS rows each (tools/bench-ranks.sh):"
  RUNS=$runs "$(dirname "$0")/bench-ranks.sh" "$build" "$RANKS"
fi
