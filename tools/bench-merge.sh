#!/bin/bash
# SPDX-License-Identifier: MIT
# The map/reduce job index at scale: N rank summaries merged by
# `--merge-summaries -f json`. KINDS distinct ranks of ROWS rows are
# generated (afg-gen-db --steps 10 --rank R --ranks N: their collectives
# name the groups of an N-rank job) and summarised once each
# (`--export -f summary --job-root`); rank i of the job is a copy of rank
# i % KINDS's summary under its own rank number and file. Prints the
# summaries' size, then the wall and CPU seconds and the peak RSS of the
# merge (the target: 1,024 summaries of 1M-row ranks in <= 15 s and
# <= 1 GB) and what it found (matched collectives, the straggler).
# Usage: tools/bench-merge.sh BUILD_DIR [N] [ROWS] [KINDS]   (default 1024 1000000 4)
set -euo pipefail
build=$(realpath "${1:?usage: tools/bench-merge.sh BUILD_DIR [N] [ROWS] [KINDS]}")
n=${2:-1024}
rows=${3:-1000000}
kinds=${4:-4}
exe="$build/src/ascend-flamegraph"
work=${AFG_BENCH_DIR:-/tmp/afg-bench}/merge-$n-$rows
mkdir -p "$work/job" "$work/sums"

for r in $(seq 0 $((kinds - 1))); do
  db="$work/job/ascend_pytorch_profiler_$r.db"
  [ -f "$db" ] || "$build/tools/afg-gen-db" --steps 10 --rank "$r" --ranks "$n" "$db" "$rows" >/dev/null
  [ -f "$work/kind-$r.json" ] || {
    "$exe" --export -q -f summary --job-root "$work/job" -o "$work/kind" "$db"
    mv "$work/kind/summary-rank$r.json" "$work/kind-$r.json"
  }
done
if [ "$(find "$work/sums" -name 'summary-rank*.json' | wc -l)" != "$n" ]; then
  rm -f "$work/sums"/summary-rank*.json
  for i in $(seq 0 $((n - 1))); do
    k=$((i % kinds))
    sed "0,/\"rank\":$k,\"file\":\"[^\"]*\"/s//\"rank\":$i,\"file\":\"ascend_pytorch_profiler_$i.db\"/" \
      "$work/kind-$k.json" > "$work/sums/summary-rank$i.json"
  done
fi
echo "summaries: $n, $(du -sm "$work/sums" | cut -f1) MB ($(stat -c %s "$work/kind-0.json") bytes for one $rows-row rank)"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load average before: $(cut -d' ' -f1 /proc/loadavg)"
/usr/bin/time -f "merge: %e s wall, %U s user, %S s system, peak RSS %M kB" \
  "$exe" --merge-summaries -f json -q -o "$out" "$work/sums"/summary-rank*.json
python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
print("ranks.json: %d ranks, collectives %s, straggler %s" % (len(j["ranks"]), j["collectives"], j["straggler"]))' \
  "$out/ranks.json"
