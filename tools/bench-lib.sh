# SPDX-License-Identifier: MIT
# Sourced by the benchmark scripts (not run); they set $runs first.

best() { # best wall seconds and its peak RSS (KB) of $runs runs of "$@"
  local best_s=999999 best_kb=0 s kb tfile
  tfile=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$tfile" -f '%e %M' "$@" >/dev/null 2>&1 || true
    read -r s kb < "$tfile"
    if awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; best_kb=$kb; fi
  done
  rm -f "$tfile"
  echo "$best_s $best_kb"
}
