#!/bin/bash
# SPDX-License-Identifier: MIT
# A training job's folder in the window (run under xvfb-run): eight ranks
# of tools/afg-gen-db, rank 5 arriving 3 ms late at its collectives (and
# with 30% more rows per step), and a rank 8 that is not a database (read,
# failed, never judged). The window opens the folder, reads every rank,
# and its sidebar marks the straggler that the rule computed here from
# the DBs' COMMUNICATION_OP rows and ranks.json of `--export` both give
# (the rank the others wait for); a rank picked by a click shows the root total of that rank's
# exported JSON, "All ranks" the sum of them all, and "Compare with
# Rank…" the diff of two ranks.
# Usage: test-ranks-window.sh ASCEND_FLAMEGRAPH AFG_GEN_DB
EXE=$1
GEN_DB=$2
. "$(dirname "$0")/e2e-lib.sh"

DB_DIR=$(mktemp -d)
JOB=$DB_DIR/job
for rank in 0 1 2 3 4 5 6 7; do
  dir=$JOB/host_${rank}_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT
  mkdir -p "$dir"
  : > "$dir/analysis.db"
  rows=$((20000 + 40 * rank))
  [ "$rank" = 5 ] && rows=26000
  "$GEN_DB" --steps 4 --rank "$rank" --ranks 8 --tp 2 --collectives 6 --late-rank 5 --late-ns 3000000 \
    "$dir/ascend_pytorch_profiler_$rank.db" "$rows" >/dev/null || fail "afg-gen-db failed"
done
BROKEN=$JOB/host_8_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p "$BROKEN"
echo "not a database" > "$BROKEN/ascend_pytorch_profiler_8.db"
db_of () { echo "$JOB/host_${1}_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$1.db"; }

OUT=$WORK/cli
"$EXE" --export -q -f json -o "$OUT" "$JOB" 2>/dev/null
[ $? = 1 ] || fail "the CLI's folder export does not fail on rank 8"

# The straggler by the rule, from the DBs: a collective (groupName, opName)
# is matched when it occurs once on each rank with rows of its group (two
# or more); it qualifies when max - min >= 50 us and 20 (max - min) >= max;
# the rank(s) at the minimum came last; the straggler came last at more
# than half of the qualifying ones it took part in (ties: lowest rank).
WANT_STRAGGLERS=$(python3 - "$OUT/ranks.json" "$JOB" <<'PY'
import collections, glob, json, re, sqlite3, sys
groups, seen = collections.defaultdict(set), collections.defaultdict(list)
for path in sorted(glob.glob(sys.argv[2] + "/*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db")):
    rank = int(re.search(r"_(\d+)\.db$", path).group(1))
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        rows = db.execute("SELECT g.value, o.value, c.endNs - c.startNs FROM COMMUNICATION_OP c"
                          " LEFT JOIN STRING_IDS g ON g.id = c.groupName LEFT JOIN STRING_IDS o ON o.id = c.opName"
                          " WHERE typeof(c.startNs) = 'integer' AND typeof(c.endNs) = 'integer'"
                          " AND c.endNs >= c.startNs").fetchall()
    except sqlite3.DatabaseError:
        continue
    for group, op, ns in rows:
        if group is None:
            continue
        groups[group].add(rank)
        if op is not None:
            seen[(group, op)].append((rank, ns))
votes, took = collections.Counter(), collections.Counter()
for (group, op), occ in seen.items():
    ranks = [r for r, _ in occ]
    if len(groups[group]) < 2 or len(ranks) != len(set(ranks)) or set(ranks) != groups[group]:
        continue
    lo, hi = min(ns for _, ns in occ), max(ns for _, ns in occ)
    if hi - lo >= 50000 and 20 * (hi - lo) >= hi:
        for r, ns in occ:
            took[r] += 1
            votes[r] += ns == lo
best = sorted((r for r in took if 2 * votes[r] > took[r]), key=lambda r: (-votes[r] / took[r], r))
want = best[0] if best else None
got = json.load(open(sys.argv[1]))["straggler"]
print(want if want == got else "ranks.json says %s, the rule %s" % (got, want))
PY
)
[ "$WANT_STRAGGLERS" = 5 ] || fail "the straggler is not rank 5: $WANT_STRAGGLERS"

cli_root () {
  python3 -c 'import json, sys; print(sum(t["total_ns"] for t in json.load(open(sys.argv[1]))["threads"]))' \
    "$OUT/rank$1/flamegraph.json"
}
ALL_NS=$(python3 -c 'import json, sys; print(sum(r["host_ns"] for r in json.load(open(sys.argv[1]))["ranks"] if r["error"] is None))' "$OUT/ranks.json")

# --- the folder on the command line ----------------------------------------
start_app "$JOB"
wait_state page=graph ranks=9/9
[ "$(state_field straggler)" = "$WANT_STRAGGLERS" ] \
  || fail "the sidebar marks '$(state_field straggler)', ranks.json '$WANT_STRAGGLERS'"
ok "all 9 ranks read (one failed); the sidebar's straggler ($WANT_STRAGGLERS) is the rule's and ranks.json's"

FIRST=$(state_field rank)
[ -n "$FIRST" ] || fail "no rank shown first"
[ "$(state_field file)" = "$(db_of "$FIRST")" ] || fail "rank $FIRST shown with file $(state_field file)"
[ "$(state_field root_ns)" = "$(cli_root "$FIRST")" ] || fail "rank $FIRST: root $(state_field root_ns), CLI $(cli_root "$FIRST")"
ok "the first rank read (rank $FIRST) is shown with the CLI's root total"

# Named after the job's folder, not after the rank read first.
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$JOB")\$" | head -1)
[ -n "$WID" ] || fail "no window named after the job's folder '$(basename "$JOB")'"
eval "$(xdotool getwindowgeometry --shell "$WID")"

# click_rank WANT: clicks down the sidebar until the state shows rank WANT;
# ROW_Y is then the row's height in the window.
click_rank () {
  local y
  for y in $(seq 70 12 $((HEIGHT - 60))); do
    xdotool mousemove --window "$WID" 120 "$y" click 1
    barrier
    ROW_Y=$y
    [ "$(state_field rank)" = "$1" ] && return 0
  done
  fail "no click in the sidebar picked rank $1 (last: $(state_field rank))"
}

# pick_rank WANT: picks the sidebar's rows in turn, as a click does,
# until the state shows rank WANT ("all" is the first row); PICKED_ROW is
# then its row.
pick_rank () {
  local row
  for row in $(seq 0 9); do
    pick AfgRankSidebar "$row"
    barrier
    PICKED_ROW=$row
    [ "$(state_field rank)" = "$1" ] && return 0
  done
  fail "no row of the sidebar is rank $1 (last: $(state_field rank))"
}


TARGET=3
[ "$FIRST" = 3 ] && TARGET=6
click_rank "$TARGET"
wait_state page=graph "rank=$TARGET" "file=$(db_of "$TARGET")" "root_ns=$(cli_root "$TARGET")"
[ "$(xdotool getwindowname "$WID")" = "$(basename "$JOB")" ] || fail "rank $TARGET retitled the window '$(xdotool getwindowname "$WID")'"
ok "a click on rank $TARGET shows it, its root total that of the CLI's rank$TARGET/flamegraph.json; the window keeps the folder's name"

pick_rank all
wait_state page=graph rank=all "root_ns=$ALL_NS" "file=$JOB"
ok "All ranks shows the ranks read merged: root total $ALL_NS, the sum of ranks.json's host_ns"

# Every rank read has TASK rows: "All ranks" offers their device time, by
# kind too, its NPU root the sum of the ranks' exports' (rank 8 failed).
cli_device () {
  python3 -c 'import glob, json, sys
print(sum(t[sys.argv[2]] for f in glob.glob(sys.argv[1] + "/rank*/flamegraph.json") for t in json.load(open(f))["threads"]))' \
    "$OUT" "$1"
}
ALL_STATUS=$(state_field status)
case "$ALL_STATUS" in
  *"ranks merged, their threads and addresses merged · "*) ;;
  *) fail "All ranks' status line is '$ALL_STATUS'" ;;
esac
act win.weight "'npu'"
wait_state page=graph rank=all weight=npu "npu_ns=$(cli_device npu_total_ns)"
[ "$(state_field status)" = "$ALL_STATUS" ] || fail "the NPU weight made All ranks' status line '$(state_field status)'"
act win.weight "'compute'"
wait_state page=graph rank=all weight=compute
# The kernel leaves too: the Kernels tab's first row is the largest
# compute kernel of the ranks' exports added up (count, name).
KERNEL_TOP=$(python3 -c 'import glob, json, sys
sums = {}
def walk(n):
    for k in n.get("kernels", []):
        if k["kind"] == "compute":
            s = sums.setdefault(k["name"], [0, 0])
            s[0] += k["count"]
            s[1] += k["ns"]
    for c in n["children"]:
        walk(c)
for f in glob.glob(sys.argv[1] + "/rank*/flamegraph.json"):
    for t in json.load(open(f))["threads"]:
        for c in t["children"]:
            walk(c)
name = sorted(sums, key=lambda k: (-sums[k][1], k.encode()))[0]
print("%d [compute] %s" % (sums[name][0], name))' "$OUT")
act win.toggle-functions
wait_state page=graph rank=all weight=compute functions=1 "kernel_top=$KERNEL_TOP"
[ "$(state_field kernels)" -gt 0 ] || fail "All ranks draws no kernel leaves in the compute weight"
act win.toggle-functions
wait_state page=graph rank=all functions=0
act win.weight "'host'"
wait_state page=graph rank=all weight=host "root_ns=$ALL_NS"
[ "$(state_field status)" = "$ALL_STATUS" ] || fail "back in host time, All ranks' status line is '$(state_field status)'"
ok "All ranks weighs by the ranks' device time (NPU root $(cli_device npu_total_ns), the sum of their exports') and by kind, with the ranks' kernel leaves ('$KERNEL_TOP' first); its status line stays the ranks' through the weights"

# While NPU idle on All ranks: every rank read again in its NPU-idle
# instants, as the CLI's --npu-idle reads the job; the root is the sum of
# the ranks' idle exports' (rank 8 fails in both). Held on the loading
# page, Cancel leaves the whole All ranks and While NPU idle off; then
# read, toggled off and on again (kept: no second read).
"$EXE" --export -q -f json --npu-idle -o "$WORK/idle" "$JOB" 2>/dev/null
[ $? = 1 ] || fail "the CLI's --npu-idle folder export does not fail on rank 8"
IDLE_NS=$(python3 -c 'import glob, json, sys
print(sum(t["total_ns"] for f in glob.glob(sys.argv[1] + "/rank*/flamegraph.json") for t in json.load(open(f))["threads"]))' \
  "$WORK/idle")
[ "$IDLE_NS" -gt 0 ] && [ "$IDLE_NS" -lt "$ALL_NS" ] || fail "the ranks' idle exports hold $IDLE_NS of $ALL_NS ns"
send "hold afg-idle-ranks"
act win.npu-idle
wait_state page=loading
act win.cancel-load
wait_state page=graph rank=all idle=0 "root_ns=$ALL_NS" "file=$JOB"
# Switched off again while they are read: the whole All ranks, at once.
act win.npu-idle
wait_state page=loading
act win.npu-idle
wait_state page=graph rank=all idle=0 "root_ns=$ALL_NS" "file=$JOB"
send "release afg-idle-ranks"
ok "While NPU idle on All ranks reads the ranks again; Cancel, or the toggle off, leaves the whole All ranks"
act win.npu-idle
wait_state page=graph rank=all idle=1 "root_ns=$IDLE_NS" "file=$JOB"
case "$(state_field status)" in
  "8 of 9 ranks merged in their NPU-idle instants, their threads and addresses merged · "*) ;;
  *) fail "All ranks' idle status line is '$(state_field status)'" ;;
esac
# A transform reshapes it and stays in the idle instants.
act win.add-transform "('drop-function', 'no such frame')"
wait_state page=graph rank=all idle=1 "transforms=drop-function no such frame" "root_ns=$IDLE_NS"
act win.pop-transform
wait_state page=graph rank=all idle=1 transforms= "root_ns=$IDLE_NS"
act win.npu-idle
wait_state page=graph rank=all idle=0 "root_ns=$ALL_NS"
LOADS=$(count_states page=loading)
act win.npu-idle
wait_state page=graph rank=all idle=1 "root_ns=$IDLE_NS"
[ "$(count_states page=loading)" = "$LOADS" ] || fail "All ranks' idle tree was read again"
act win.npu-idle
wait_state page=graph rank=all idle=0 "root_ns=$ALL_NS"
ok "While NPU idle on All ranks: the ranks' idle instants merged, root $IDLE_NS ns, the sum of the CLI's --npu-idle exports; kept when toggled again"

pick_rank 2
RANK2_ROW=$PICKED_ROW
pick_rank 5
wait_state page=graph rank=5 "root_ns=$(cli_root 5)"
# The sidebar stacks each step's device split in the rank's bars: ranks.json's.
WANT_BARS=$(python3 -c 'import json, sys
r = [r for r in json.load(open(sys.argv[1]))["ranks"] if r["rank"] == 5][0]
print(",".join("%d %d %d %d" % tuple(s["device"][k] for k in ("compute_ns", "comm_ns", "other_ns", "free_ns")) for s in r["steps"]))' \
  "$OUT/ranks.json")
[ "$(state_field rank_bars)" = "$WANT_BARS" ] || fail "rank 5's bars stack '$(state_field rank_bars)', ranks.json '$WANT_BARS'"
ok "rank 5's sidebar bars stack its device time per step as ranks.json's ($WANT_BARS)"
# "Compare with Rank…": its menu lists the other ranks in order, the
# first being rank 0 (row 0 of the job, the action's parameter).
act win.compare-rank 0
wait_state page=graph mode=diff "file=$(db_of 5)" "compared=$(db_of 0)"
# The title names the two ranks and the job, as the job's other titles.
title_is () { [ "$(xdotool getwindowname "$WID")" = "$1" ]; }
poll 10 title_is "Rank 5 ↔ Rank 0 — job" || fail "the rank diff's title: '$(xdotool getwindowname "$WID")'"
ok "Compare with Rank… → Rank 0 shows the diff of rank 5 and rank 0, titled by the ranks and the job"

# A right click on a row picks that rank and opens the same menu. Rank
# 2's tree first: the window takes the focus when it lands, and a menu
# open then loses the keyboard.
click_rank 2
wait_state page=graph rank=2 "file=$(db_of 2)" "root_ns=$(cli_root 2)"
menu_first_item "$WID" 120 "$ROW_Y" mode=diff
wait_state page=graph mode=diff rank=2 "file=$(db_of 2)" "compared=$(db_of 0)"
ok "a right click on rank 2, then Rank 0 in its menu, shows the diff of rank 2 and rank 0"

# The ways out of a rank diff back to the rank shown: a click on its row
# again (the mouse, then the control channel's pick, as a click), Esc,
# BackSpace and Stop Comparing.
rank2_alone () {
  wait_state page=graph mode=profile rank=2 "file=$(db_of 2)" compared= "root_ns=$(cli_root 2)"
}
compare_with_0 () {
  act win.compare-rank 0
  wait_state page=graph mode=diff rank=2 "file=$(db_of 2)" "compared=$(db_of 0)"
}
xdotool mousemove --window "$WID" 120 "$ROW_Y" click 1
rank2_alone
ok "a click on rank 2, the rank shown, leaves its diff with rank 0"
compare_with_0
pick AfgRankSidebar "$RANK2_ROW"
rank2_alone
compare_with_0
xdotool key Escape
rank2_alone
compare_with_0
xdotool key BackSpace
rank2_alone
compare_with_0
act win.stop-comparing
rank2_alone
ok "a pick of the rank shown, Esc, BackSpace and Stop Comparing each leave the rank diff too"

# Closed as Ctrl+W does (the recent list is saved then).
xdotool windowfocus --sync "$WID" 2>/dev/null
wait_focus "$WID"
xdotool key ctrl+w
poll 10 app_gone || fail "Ctrl+W did not close the window"
PID=

# --- the start page: the job in Recent (not its ranks), Open Folder… -------
JOB_URI=$(python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).as_uri())' "$JOB")
grep -qF "\"$JOB_URI\"" "$XDG_DATA_HOME/recently-used.xbel" || fail "the job's folder is not in recently-used.xbel"
grep -q 'ascend_pytorch_profiler_[0-9]*\.db' "$XDG_DATA_HOME/recently-used.xbel" \
  && fail "ranks picked in the sidebar are in recently-used.xbel"
start_app
wait_state page=empty recent=1
ok "after picking ranks in the sidebar the start page lists one recent entry: the job's folder"
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^Ascend Flame Graph\$" | head -1)
[ -n "$WID" ] || fail "no start page window"
xdotool windowfocus --sync "$WID" 2>/dev/null
wait_focus "$WID"
# The start page's "Open _Folder…" button, by its mnemonic.
xdotool key alt+f
DIALOG=$(timeout 10 xdotool search --sync --onlyvisible --name "^Open a Training Job's Folder\$" | head -1)
[ -n "$DIALOG" ] || fail "the start page's Open Folder… shows no folder dialog"
wait_focus "$DIALOG"
xdotool type --delay 20 "$JOB/"
xdotool key Return
wait_state page=graph ranks=9/9
ok "the start page's Open Folder… button opens a job's folder"
stop_app

# --- Cancel in the sidebar's header stops the ranks not read yet ------------
BIG=$DB_DIR/big
for rank in 0 1 2 3; do
  dir=$BIG/r${rank}_ascend_pt/ASCEND_PROFILER_OUTPUT
  mkdir -p "$dir"
  "$GEN_DB" --steps 4 "$dir/ascend_pytorch_profiler_$rank.db" 150000 >/dev/null || fail "afg-gen-db failed"
done
# AFG_TEST_HOLD_RANKS holds each worker, its rank read, until the job is
# cancelled: however fast the machine, ranks are left for Cancel to stop.
AFG_TEST_HOLD_RANKS=1 start_app "$BIG"
wait_state ranks=0/4
WID=$(timeout 10 xdotool search --sync --onlyvisible --name '^big$' | head -1)
[ -n "$WID" ] || fail "no window named after the folder 'big'"
# The sidebar's Cancel button.
act win.cancel-ranks
# The workers held at the cancel finish their ranks; the rest are cancelled.
all_accounted () {
  READ=$(state_field ranks)
  [ $(( ${READ%/4} + $(state_field cancelled) )) = 4 ]
}
poll 30 all_accounted || fail "ranks neither read nor cancelled: $(last_state | tr '\t' ' ')"
[ "$(state_field cancelled)" -ge 1 ] || fail "Cancel stopped nothing: $READ read"
case "${READ%/4}" in
  0) wait_state page=empty ;;
  *) wait_state page=graph ;;
esac
ok "Cancel stops the job: $READ ranks read, $(state_field cancelled) cancelled, page $(state_field page)"
stop_app

# --- a folder without a profiler DB ----------------------------------------
mkdir -p "$DB_DIR/empty/sub"
start_app "$DB_DIR/empty"
wait_state page=error
case "$(state_field error)" in
  *"no ascend_pytorch_profiler"*|*"No ascend_pytorch_profiler"*|*profiler*) ;;
  *) fail "the error page says '$(state_field error)'" ;;
esac
ok "a folder without a profiler DB shows an error page ($(state_field error))"

# --- File → Open Folder… (Ctrl+Shift+O) from that window --------------------
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^empty\$" | head -1)
[ -n "$WID" ] || fail "no window named 'empty'"
xdotool windowfocus --sync "$WID" 2>/dev/null
xdotool key ctrl+shift+o
DIALOG=$(timeout 10 xdotool search --sync --onlyvisible --name "^Open a Training Job's Folder\$" | head -1)
[ -n "$DIALOG" ] || fail "Ctrl+Shift+O shows no folder dialog"
wait_focus "$DIALOG"
xdotool type --delay 20 "$JOB/"
xdotool key Return
wait_state page=graph ranks=9/9 "straggler=$WANT_STRAGGLERS"
ok "Ctrl+Shift+O picks the job's folder in the folder dialog: its 9 ranks are read"
stop_app
echo "1..$N"
