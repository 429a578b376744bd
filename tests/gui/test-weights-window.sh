#!/bin/bash
# SPDX-License-Identifier: MIT
# The window's weight menu on the level 1 sample (run under xvfb-run):
# win.weight and Ctrl+N go through every weight; in each, the widths,
# the root's tooltip, the search share and the kernel leaves drawn are
# the CLI JSON's figures (--merge-addresses, as the window builds);
# hovering a leaf shows its kind, count and times; the Functions panel's
# Kernels tab lists first what `--top 1 --weight compute --kernels` does;
# the choice is remembered. With AFG_SCREENSHOT_DIR set, the picture of
# docs/device-kinds.md: the compute weight and its leaves.
# Usage: test-weights-window.sh ASCEND_FLAMEGRAPH
EXE=$1
. "$(dirname "$0")/e2e-lib.sh"

DB=${AFG_SAMPLES_DIR:?}/ascend_pytorch_profiler_level1_rank0.db
NEEDLE=allreduce
keyfile_settings

"$EXE" --export -q --merge-addresses -f json -o "$WORK/cli" "$DB" || fail "the CLI failed"
# Per weight: the root total (the threads' sum) as the tooltip prints it,
# the share of the frames named *$NEEDLE* (the search's rule: the topmost
# matches) and how many kernel leaves weigh anything in it.
figures () {
  python3 - "$WORK/cli/flamegraph.json" "$NEEDLE" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
needle, weight = sys.argv[2].lower(), sys.argv[3]
total = {"host": "total_ns", "npu": "npu_total_ns", "compute": "npu_compute_total_ns",
         "comm": "comm_total_ns", "exposed": "comm_exposed_total_ns"}[weight]
def leaf(k):
    if weight == "compute":
        return k["ns"] if k["kind"] == "compute" else 0
    if weight == "comm":
        return k["ns"] if k["kind"] == "communication" else 0
    if weight == "exposed":
        return k["exposed_ns"] if k["kind"] == "communication" else 0
    return 0
def matched(nodes):
    return sum(n[total] if needle in n["name"].lower() else matched(n.get("children", [])) for n in nodes)
def leaves(nodes):
    return sum(sum(1 for k in n["kernels"] if leaf(k) > 0) + leaves(n.get("children", [])) for n in nodes)
frames = [c for t in d["threads"] for c in t.get("children", [])]
root = sum(t[total] for t in d["threads"])
share = "%.1f%%" % (100.0 * matched(frames) / root) if root else ""
print(root, share, leaves(frames) if weight in ("compute", "comm", "exposed") else "")
PY
}

start_app "$DB"
wait_state page=graph weight=host kernels=
WID=$(timeout 10 xdotool search --sync --onlyvisible --name "^$(basename "$DB")\$" | head -1)
[ -n "$WID" ] || fail "no window"
eval "$(xdotool getwindowgeometry --shell "$WID")"
ok "the sample opens in host time, without kernel leaves"

find_root_y "$WID"

# check_weight W: the window in W shows the CLI's root total, share and leaves.
check_weight () {
  local root share leaves text
  read -r root share leaves <<< "$(figures "$1")"
  wait_state "weight=$1" "kernels=$leaves"
  text=$(python3 -c 'import sys; print("%.2fms" % (int(sys.argv[1]) / 1e6))' "$root")
  xdotool mousemove --window "$WID" $((WIDTH / 2 + 1)) "$ROOT_Y"
  hover_at "$WID" $((WIDTH / 2)) "$ROOT_Y"
  poll 5 tooltip_of "All threads" || fail "no tooltip on the root in $1"
  TIP=$(tr -d ' ' <<< "$TIP")
  case "$1:$TIP" in
    host:*"Total:$text"*|npu:*"NPUtotal:$text"*|compute:*"Computetotal:$text"*) ;;
    comm:*"Communicationtotal:$text"*|exposed:*"Exposedtotal:$text"*) ;;
    *) fail "the root's tooltip in $1 lacks $text: $TIP" ;;
  esac
  case "$TIP" in
    *"Total:"*"NPUtotal:"*"Computetotal:"*"Communicationtotal:"*"Exposedtotal:"*) ;;
    *) fail "the root's tooltip lacks a weight: $TIP" ;;
  esac
  search "$NEEDLE"
  [ -z "$share" ] || wait_state "weight=$1" "matched=$share"
  act win.escape
  wait_state matches= "weight=$1"
  ok "$1: root $text, '$NEEDLE' ${share:-none}, ${leaves:-no} kernel leaves, as the CLI's JSON has them"
}

check_weight host
for w in compute comm exposed npu; do
  act win.weight "'$w'"
  check_weight "$w"
done

# Ctrl+N: host and the device weight chosen last (npu), then compute again.
xdotool mousemove --window "$WID" $((WIDTH / 2)) $((HEIGHT / 2))
xdotool key ctrl+n
wait_state weight=host kernels=
xdotool key ctrl+n
wait_state weight=npu kernels=
act win.weight "'compute'"
wait_state weight=compute
xdotool key ctrl+n
wait_state weight=host
xdotool key ctrl+n
wait_state weight=compute
ok "Ctrl+N goes between host time and the device weight chosen last"

# A kernel leaf: above the root's thread and frames, somewhere on the
# compute weight's rows; from the middle on, where its tooltip fits.
LEAF=
for y in $(seq $((ROOT_Y - 40)) -20 60); do
  for x in $(seq $((WIDTH / 2)) 80 $((WIDTH * 3 / 4))) $(seq 20 80 $((WIDTH - 20))); do
    hover_at "$WID" "$x" "$y"
    case "$(state_field tooltip)" in
      *"Device kernel of"*) LEAF=$(state_field tooltip); break 2 ;;
    esac
  done
done
[ -n "$LEAF" ] || fail "no kernel leaf under the pointer in the compute weight"
case "$LEAF" in
  *"Kind: compute"*"Count: "*"Time: "*"Exposed: 0 ns"*) ;;
  *) fail "a compute leaf's tooltip lacks its kind, count or times: $LEAF" ;;
esac
[ -z "$(state_field hover)" ] || fail "a leaf is not a frame, yet hover=$(state_field hover)"
if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
  poll 5 tooltip_window || fail "no tooltip for the screenshot"
  import -window root -crop "${WIDTH}x${HEIGHT}+0+0" +repage "$AFG_SCREENSHOT_DIR/screenshot-window-kernels.png"
fi
ok "a kernel leaf's tooltip: ${LEAF:0:100}…"

# The Kernels tab: its first row is the CLI's, in each weight with leaves.
# cli_top W: "COUNT [KIND] NAME" of `--top 1 --weight W --kernels`.
cli_top () {
  local top
  top=$("$EXE" --top 1 --weight "$1" --kernels "$DB" | sed -n 2p)
  [ -n "$top" ] || fail "the CLI listed no kernel in $1"
  echo "$(awk '{print $1}' <<< "$top") $(sed 's/^[^[]*\[/[/' <<< "$top")"
}
xdotool key ctrl+shift+f
wait_state functions=1 weight=compute "kernel_top=$(cli_top compute)"
ok "the Kernels tab lists first '$(cli_top compute)', as --top 1 --weight compute --kernels"
for w in comm exposed; do
  act win.weight "'$w'"
  wait_state functions=1 "weight=$w" "kernel_top=$(cli_top "$w")"
done
act win.weight "'compute'"
wait_state functions=1 weight=compute "kernel_top=$(cli_top compute)"
ok "in comm and exposed too the Kernels tab's first row is the CLI's: '$(cli_top exposed)'"

# Remembered: a new start shows the compute weight at once.
stop_app
start_app "$DB"
wait_state page=graph weight=compute
ok "the compute weight is remembered across starts"
echo "1..$N"
