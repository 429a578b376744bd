#!/bin/bash
# Job folder benchmark: eight synthetic ranks of ROWS rows
# (afg-gen-db, 8 steps; rank 5 with 30% more rows, the straggler) in
# torch_npu's layout. Prints the wall seconds and peak RSS of
# `--export -f json` of the folder, the sum of the eight single exports'
# seconds, the largest single peak RSS, and the two ratios (targets:
# <= 0.7 and <= 2). Each figure is the best of RUNS runs (the machine is
# shared and noisy): the CPU seconds (user + system) of those runs and
# the 1-minute load average before and after say how much it was.
# paired is the median, over RUNS rounds, of the folder's export over the
# eight single exports run just before it (tools/bench-lib.sh says why).
# Usage: tools/bench-ranks.sh BUILD_DIR [ROWS]   (default 1000000)
set -euo pipefail
build=${1:?usage: tools/bench-ranks.sh BUILD_DIR [ROWS]}
rows=${2:-1000000}
runs=${RUNS:-3}
job=${AFG_BENCH_DIR:-/tmp/afg-bench}/job-$rows
exe="$build/src/ascend-flamegraph"

# shellcheck source=tools/bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

dbs=()
for rank in 0 1 2 3 4 5 6 7; do
  dir="$job/host_${rank}_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT"
  db="$dir/ascend_pytorch_profiler_$rank.db"
  n=$rows
  [ "$rank" = 5 ] && n=$((rows * 13 / 10))
  ensure_db "$db" "$n" --steps 8
  dbs+=("$db")
done

core_speeds
out=$(mktemp -d)
load_before=$(load_average)
sum_s=0 sum_cpu=0 max_kb=0
for db in "${dbs[@]}"; do
  read -r s kb cpu < <(best "$exe" --export -q -f json -o "$out" "$db")
  sum_s=$(awk -v a="$sum_s" -v b="$s" 'BEGIN { print a + b }')
  sum_cpu=$(awk -v a="$sum_cpu" -v b="$cpu" 'BEGIN { print a + b }')
  [ "$kb" -gt "$max_kb" ] && max_kb=$kb
done
read -r job_s job_kb job_cpu < <(best "$exe" --export -q -f json -o "$out" "$job")
ratios=()
for _ in $(seq "$runs"); do
  round_sum=0
  for db in "${dbs[@]}"; do
    round_sum=$(awk -v a="$round_sum" -v b="$(wall "$exe" --export -q -f json -o "$out" "$db")" 'BEGIN { print a + b }')
  done
  ratios+=("$(awk -v a="$(wall "$exe" --export -q -f json -o "$out" "$job")" -v b="$round_sum" 'BEGIN { print a / b }')")
done
rm -rf "$out"
printf '%-9s %5s %7s %7s %6s %7s %7s %7s %11s %11s %6s %9s\n' rows_rank cores job_s sum_s ratio paired job_cpu \
  sum_cpu job_rss_MB single_MB ratio load
printf '%-9s %5s %7s %7s %6.2f %7s %7s %7s %11.1f %11.1f %6.2f %9s\n' "$rows" "$(nproc)" "$job_s" "$sum_s" \
  "$(awk -v a="$job_s" -v b="$sum_s" 'BEGIN { print a / b }')" "$(median "${ratios[@]}")" "$job_cpu" "$sum_cpu" \
  "$(awk -v k="$job_kb" 'BEGIN { print k / 1024 }')" "$(awk -v k="$max_kb" 'BEGIN { print k / 1024 }')" \
  "$(awk -v a="$job_kb" -v b="$max_kb" 'BEGIN { print a / b }')" "$load_before-$(load_average)"
