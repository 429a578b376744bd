# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced by the benchmark scripts (not run); they set $runs first.

# Wall time from bash's clock in microseconds: GNU time's %e counts in
# hundredths, a step of 7 % of a 0.14 s export (0.14 or 0.15 against a
# 0.19 s scan read as 0.74 or 0.79). GNU time still gives the peak RSS
# and the CPU time; starting it is in every figure alike (about 1 ms).
wall() { # wall seconds of one run of "$@", its output and failure ignored
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  t1=$EPOCHREALTIME
  awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.3f", b - a }'  # a locale's decimal comma
}

best() { # best wall seconds, its peak RSS (KB) and CPU seconds (user + system) of $runs runs of "$@"
  local best_s=999999 best_kb=0 best_cpu=0 s kb u sy tfile
  tfile=$(mktemp)
  for _ in $(seq "${runs:?}"); do
    s=$(wall /usr/bin/time -o "$tfile" -f '%M %U %S' "$@")
    read -r kb u sy < "$tfile"
    if awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s; best_kb=$kb; best_cpu=$(awk -v a="$u" -v b="$sy" 'BEGIN { print a + b }')
    fi
  done
  rm -f "$tfile"
  echo "$best_s $best_kb $best_cpu"
}

# The synthetic DBs are made once and kept between runs, written under a
# temporary name first so that an interrupted run leaves no half-made DB;
# one older than the generator is made again (its device side changed).
ensure_db() { # ensure_db DB ROWS [afg-gen-db OPTION...]: make DB with $build's afg-gen-db unless it exists
  local db=$1 rows=$2
  shift 2
  [ "$db" -nt "${build:?}/tools/afg-gen-db" ] && return
  mkdir -p "$(dirname "$db")"
  "${build:?}/tools/afg-gen-db" "$@" "$db.$$" "$rows" >/dev/null
  mv "$db.$$" "$db"
}

load_average() { # the 1-minute load average: how shared the machine was
  cut -d' ' -f1 /proc/loadavg
}

# Best-of figures compare two minima taken minutes apart; when the host's
# load comes in bursts (a scan's best 0.19 s one half hour, 0.25 s the
# next) their ratio swings by more than the work changed. Running the two
# back to back in every round and taking the median of the rounds' ratios
# puts both under the same load.
median() { # the median of the numbers given
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The host may give one vCPU less time than the other (on 2026-12-05 a
# fixed loop took 83-95 ms on cpu0 and 53-55 ms on cpu1): a two-core
# export then waits for its slower half, while a one-core scan may run on
# the faster core. Printed beside the figures so that they can be read.
core_speeds() { # "cpuN M ms" for each CPU: the best of three runs of a fixed loop pinned to it
  local cpu ms best line=""
  command -v taskset >/dev/null || { echo "core speeds: no taskset"; return; }
  for cpu in $(seq 0 $(($(nproc) - 1))); do
    best=999999
    for _ in 1 2 3; do
      ms=$(awk -v s="$(wall taskset -c "$cpu" awk 'BEGIN { for (i = 0; i < 3e6; i++) s += i }')" \
        'BEGIN { printf "%.0f", s * 1000 }')
      [ "$ms" -lt "$best" ] && best=$ms
    done
    line="$line cpu$cpu $best ms,"
  done
  echo "core speeds (a fixed loop on each core):${line%,}"
}
