#!/bin/bash
# SPDX-License-Identifier: MIT
# Two step ranges of one DB compared in the window, under the
# real pointer (run under xvfb-run), on a DB of tools/afg-gen-db with 8
# steps: steps 2-3 picked as A, "Compare with Steps…" from the strip's
# right-click menu, step 5 picked as B; then Ctrl+click on step 6 and a
# new pick (step 7) as B. The diff's root and its top frames' A and B
# values must be what `--export -f json --merge-addresses --steps A` and
# `--steps B` write for the same DB, their threads merged; Esc goes back
# to A's tree.
# Usage: test-step-compare.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"
. "$(dirname "$0")/strip-lib.sh"

steps_db 20000

# cli_export RANGE [--npu-idle]: the CLI's JSON of the steps (of their
# idle instants into cli-idle-RANGE), as the window builds its trees
# (address variants merged).
cli_export () {
  local dir=$WORK/cli-${2:+idle-}$1
  mkdir -p "$dir"
  "$EXE" --export -q --merge-addresses -f json -o "$dir" --steps "$1" ${2:+"$2"} "$DB" \
    || fail "the CLI failed for --steps $1 $2"
}

# The exports expect_diff reads: "" for the steps, "idle-" for their
# idle instants.
IDLE=

# switch_idle: While NPU idle switched, and the exports expect_diff reads
# with it.
switch_idle () {
  act win.npu-idle
  if [ -n "$IDLE" ]; then IDLE=; else IDLE=idle-; fi
}

# cli_root RANGE: the export's total, its threads merged.
cli_root () {
  python3 -c 'import json, sys
print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' "$WORK/cli-$IDLE$1/flamegraph.json"
}

# cli_top RANGE NAME: "CALLS TOTAL_NS" of the top frame NAME, its threads
# merged (0 0 where no thread has it).
cli_top () {
  python3 -c 'import json, sys
top = [c for t in json.load(open(sys.argv[1]))["threads"] for c in t.get("children", []) if c["name"] == sys.argv[2]]
print(sum(c["calls"] for c in top), sum(c["total_ns"] for c in top))' "$WORK/cli-$IDLE$1/flamegraph.json" "$2"
}

for r in 2-3 5 6 7; do cli_export "$r"; done
ROOT_23=$(cli_root 2-3)

start_app "$DB"
wait_state page=graph scope= strip=8 mode=profile scope_a= scope_b= strip_a=
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^steps.db\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"

find_strip "$WID" "$WIDTH"
for s in 2 3 5 6 7; do [ -n "${FIRST[$s]:-}" ] || fail "step $s has no bar"; done

xdotool mousemove --window "$WID" "$(bar 2)" "$STRIP_Y" click 1
xdotool mousemove --window "$WID" "$(bar 3)" "$STRIP_Y" keydown shift click 1 keyup shift
wait_state page=graph scope=2-3 "root_ns=$ROOT_23" mode=profile
ok "steps 2-3 picked as A"

# The strip's right-click menu: its first item, "Compare with Steps…",
# is the one under the keyboard.
menu_first_item "$WID" "$(bar 3)" "$STRIP_Y" scope_a=2-3
wait_state mode=profile scope_a=2-3 scope_b= scope=2-3 strip_a=2-3
ok "Compare with Steps… waits for B (scope_a=2-3), the strip marks 2-3 as A"

# Esc cancels the wait; then the menu again.
xdotool key Escape
wait_state mode=profile scope_a= scope_b= scope=2-3 "root_ns=$ROOT_23" strip_a=
barrier
[ "$(state_field mode)" = profile ] || fail "Esc while waiting for B compared something"
[ "$(state_field scope)" = 2-3 ] || fail "Esc while waiting for B changed the scope"
menu_first_item "$WID" "$(bar 3)" "$STRIP_Y" scope_a=2-3
wait_state mode=profile scope_a=2-3 scope_b= scope=2-3
ok "Esc while waiting for B cancels; the menu starts again"

# expect_diff A B A_WORDS B_WORDS: the diff of A's and B's trees, its root and each top
# frame under the pointer as the CLI's exports say.
expect_diff () {
  local title="steps.db $3 ↔ $4"
  wait_state page=graph mode=diff "scope_a=$1" "scope_b=$2" "root_ns=$(cli_root "$2")" "strip_a=$1" \
    "idle=$([ -n "$IDLE" ] && echo 1 || echo 0)"
  [ "$(xdotool getwindowname "$WID")" = "$title" ] || fail "title: $(xdotool getwindowname "$WID"), not $title"
  # The status line says what its two totals are.
  case "$(state_field status)" in
    "A: $3 ("*") → B: $4 ("*"), host time on all threads · "*" frames, threads merged") ;;
    *) fail "status: $(state_field status)" ;;
  esac
  local checked=0 y x path values ca ta cb tb
  # Up to 4 frames right above the root bar, along the bottom of the graph.
  for y in $(seq $((HEIGHT - 40)) -4 $((HEIGHT - 120))); do
    for x in $(seq 20 60 $((WIDTH - 20))); do
      hover_at "$WID" "$x" "$y"
      path=$(state_field hover_path)
      case "$path" in ''|*';'*) continue ;; esac
      values=$(state_field hover_values)
      read -r ca ta cb tb <<< "$(cli_top "$1" "$path") $(cli_top "$2" "$path")"
      read -r a_calls a_total _ b_calls b_total _ <<< "$values"
      [ "$a_calls $a_total $b_calls $b_total" = "$ca $ta $cb $tb" ] \
        || fail "$path: window A/B '$values', the CLI's A '$ca $ta' and B '$cb $tb'"
      checked=$((checked + 1))
      [ "$checked" -lt 4 ] || return 0
    done
    [ "$checked" -gt 0 ] && break
  done
  [ "$checked" -gt 0 ] || fail "no top frame under the pointer in the diff"
}

xdotool mousemove --window "$WID" "$(bar 5)" "$STRIP_Y" click 1
expect_diff 2-3 5 "steps 2–3" "step 5"
ok "a click on step 5 shows steps 2-3 against step 5; root and top frames are the CLI's --steps 2-3 and --steps 5"

# band_rows X: which bands the strip draws above the bar at X, read from
# the window's pixels (captured in strip.png) just below the row where the strip starts: "A" for
# orange (A), "B" for blue (B), one letter per row that has one.
band_rows () {
  convert "$WORK/strip.png" -crop "1x10+$1+$((STRIP_Y - 4))" +repage txt:- \
    | sed -n 's/.*srgb[a]*(\([0-9]*\),\([0-9]*\),\([0-9]*\).*/\1 \2 \3/p' \
    | awk '$1 > 200 && $2 > 80 && $2 < 160 && $3 < 60 { printf "A" }
           $1 < 90 && $2 > 100 && $2 < 160 && $3 > 190 { printf "B" }'
}
# bands_drawn: a capture (strip.png) with A's band above step 2 and B's
# above step 5; the window may draw them a moment after the state line.
bands_drawn () {
  import -window "$WID" "$WORK/strip.png" 2>/dev/null || return 1
  case "$(band_rows "$(bar 2)")" in *A*) ;; *) return 1 ;; esac
  case "$(band_rows "$(bar 5)")" in *B*) ;; *) return 1 ;; esac
}
hover_at "$WID" "$(bar 2)" $((HEIGHT - 60))
poll 10 bands_drawn || fail "no orange A band above step 2 ($(band_rows "$(bar 2)")) or no blue B band above step 5 ($(band_rows "$(bar 5)"))"
case "$(band_rows "$(bar 5)")" in *A*) fail "an A band above step 5" ;; esac
case "$(band_rows "$(bar 6)")" in *A*|*B*) fail "a band above step 6, in neither range" ;; esac
ok "the strip draws A's band above steps 2-3 and B's above step 5, none above step 6"

xdotool key Escape
wait_state page=graph mode=profile scope=2-3 "root_ns=$ROOT_23" scope_a= scope_b= strip_a=
[ "$(xdotool getwindowname "$WID")" = "steps 2–3 — steps.db" ] || fail "title after Esc: $(xdotool getwindowname "$WID")"
ok "Esc goes back to steps 2-3"

xdotool mousemove --window "$WID" "$(bar 6)" "$STRIP_Y" keydown ctrl click 1 keyup ctrl
expect_diff 2-3 6 "steps 2–3" "step 6"
ok "Ctrl+click on step 6 compares steps 2-3 with step 6"

xdotool mousemove --window "$WID" "$(bar 7)" "$STRIP_Y" click 1
expect_diff 2-3 7 "steps 2–3" "step 7"
ok "a new pick while comparing makes step 7 the new B"

# While NPU idle switched during the diff: both ranges again, in their
# idle instants, as --npu-idle --steps A and --steps B export them; off
# again, the whole ranges.
for r in 2-3 5 6 7; do cli_export "$r" --npu-idle; done
switch_idle
expect_diff 2-3 7 "steps 2–3" "step 7"
ok "While NPU idle during the diff compares the ranges' idle instants (--npu-idle --steps 2-3 and 7)"
switch_idle
expect_diff 2-3 7 "steps 2–3" "step 7"
ok "While NPU idle off again: the whole ranges"

xdotool key Escape
wait_state page=graph mode=profile scope=2-3 "root_ns=$ROOT_23" scope_a= scope_b=
ok "Esc goes back to steps 2-3 again"

# Switched while B is awaited: A's idle tree, still waiting; then B's
# pick compares the idle instants of both.
menu_first_item "$WID" "$(bar 3)" "$STRIP_Y" scope_a=2-3
wait_state mode=profile scope_a=2-3 scope_b= scope=2-3
switch_idle
wait_state page=graph mode=profile scope_a=2-3 scope=2-3 idle=1 "root_ns=$(cli_root 2-3)"
xdotool mousemove --window "$WID" "$(bar 5)" "$STRIP_Y" click 1
expect_diff 2-3 5 "steps 2–3" "step 5"
ok "While NPU idle while B is awaited: A's idle tree, then the idle instants of steps 2-3 and 5"
switch_idle
expect_diff 2-3 5 "steps 2–3" "step 5"
# Switched on while the next B's diff is still being made (held before
# it runs, whatever the machine's speed): that diff of both ranges' idle
# instants lands, not the one asked for before.
send "hold afg-step-compare"
xdotool mousemove --window "$WID" "$(bar 6)" "$STRIP_Y" click 1
barrier
has_fields "$(last_state)" mode=diff scope_b=5 idle=0 || fail "the held diff of step 6 is on screen already"
switch_idle
barrier
send "release afg-step-compare"
expect_diff 2-3 6 "steps 2–3" "step 6"
ok "While NPU idle while a diff is being made: the idle instants of steps 2-3 and 6"
switch_idle
expect_diff 2-3 6 "steps 2–3" "step 6"
xdotool key Escape
wait_state page=graph mode=profile scope=2-3 "root_ns=$ROOT_23" scope_a= scope_b= idle=0
echo "1..$N"
