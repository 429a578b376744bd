#!/bin/bash
# Diff export benchmark: two synthetic profiles of ROWS rows
# (afg-gen-db --seed 1 and --seed 2). Prints the wall seconds and peak RSS
# of `--diff a.db b.db --export -f FORMAT`, the sum of the two single
# `--export -f FORMAT` runs, and their ratio (target: <= 1.3). Each figure
# is the best of RUNS runs (the machine is shared and noisy).
# Usage: tools/bench-diff.sh BUILD_DIR [ROWS] [FORMAT]   (default 1000000 html)
set -euo pipefail
build=${1:?usage: tools/bench-diff.sh BUILD_DIR [ROWS] [FORMAT]}
rows=${2:-1000000}
format=${3:-html}
runs=${RUNS:-3}
dir=${AFG_BENCH_DIR:-/tmp/afg-bench}/diff-$rows
exe="$build/src/ascend-flamegraph"

# shellcheck source=tools/bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

mkdir -p "$dir"
for seed in 1 2; do
  ensure_db "$dir/ascend_pytorch_profiler_$seed.db" "$rows" --seed "$seed"
done
a="$dir/ascend_pytorch_profiler_1.db"
b="$dir/ascend_pytorch_profiler_2.db"

out=$(mktemp -d)
read -r a_s _ < <(best "$exe" --export -q -f "$format" -o "$out" "$a")
read -r b_s _ < <(best "$exe" --export -q -f "$format" -o "$out" "$b")
read -r d_s d_kb _ < <(best "$exe" --diff "$a" "$b" --export -q -f "$format" -o "$out")
rm -rf "$out"
sum_s=$(awk -v a="$a_s" -v b="$b_s" 'BEGIN { print a + b }')
printf '%-8s %-7s %6s %7s %7s %7s %7s %6s %9s\n' rows format cores a_s b_s sum_s diff_s ratio diff_rss_MB
printf '%-8s %-7s %6s %7s %7s %7s %7s %6.2f %9.1f\n' "$rows" "$format" "$(nproc)" "$a_s" "$b_s" "$sum_s" "$d_s" \
  "$(awk -v a="$d_s" -v b="$sum_s" 'BEGIN { print a / b }')" "$(awk -v k="$d_kb" 'BEGIN { print k / 1024 }')"
