# SPDX-License-Identifier: MIT
# Sourced by the benchmark scripts (not run); they set $runs first.

best() { # best wall seconds, its peak RSS (KB) and CPU seconds (user + system) of $runs runs of "$@"
  local best_s=999999 best_kb=0 best_cpu=0 s kb u sy tfile
  tfile=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$tfile" -f '%e %M %U %S' "$@" >/dev/null 2>&1 || true
    read -r s kb u sy < "$tfile"
    if awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s; best_kb=$kb; best_cpu=$(awk -v a="$u" -v b="$sy" 'BEGIN { print a + b }')
    fi
  done
  rm -f "$tfile"
  echo "$best_s $best_kb $best_cpu"
}

load_average() { # the 1-minute load average: how shared the machine was
  cut -d' ' -f1 /proc/loadavg
}
