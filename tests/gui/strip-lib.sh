# SPDX-License-Identifier: MIT
# Sourced by the step strip's GUI tests, after e2e-lib.sh.

# steps_db ROWS: DB, a DB of afg-gen-db ($GEN_DB) with ROWS rows in 8
# steps, step 5 three times as long.
steps_db () {
  DB_DIR=$(mktemp -d)
  DB=$DB_DIR/steps.db
  "$GEN_DB" --steps 8 --slow-step 5 "$DB" "$1" >/dev/null || fail "afg-gen-db failed"
}

# find_strip WINDOW WIDTH: the strip's row (STRIP_Y), found by moving the
# pointer down below the header bar until a step is hovered, then each
# step's bar along that row (FIRST and LAST x of step S); `bar S` is the
# middle of step S's bar.
declare -A FIRST LAST
find_strip () {
  local y x s
  STRIP_Y=
  for y in $(seq 40 2 160); do
    hover_at "$1" 30 "$y"
    [ -n "$(state_field step)" ] && STRIP_Y=$y && break
  done
  [ -n "$STRIP_Y" ] || fail "no step under the pointer below the header bar"
  for x in $(seq 0 4 "$2"); do
    hover_at "$1" "$x" "$STRIP_Y"
    s=$(state_field step)
    [ -n "$s" ] || continue
    [ -n "${FIRST[$s]:-}" ] || FIRST[$s]=$x
    LAST[$s]=$x
  done
}

bar () { echo $(((FIRST[$1] + LAST[$1]) / 2)); }
