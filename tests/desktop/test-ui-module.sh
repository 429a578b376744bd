#!/bin/sh
# test-ui-module.sh EXE MODULE: an export never loads the window module
# (nor GTK); a window without the module is one error line and a hint.
set -u
exe=${1:?} module=${2:?}
fail () { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# An export maps neither the module nor GTK (LD_DEBUG lists every library loaded).
LD_DEBUG=files "$exe" --version >/dev/null 2>"$tmp/ld.log" || fail "--version failed"
grep -q 'libgtk-4' "$tmp/ld.log" && fail "--version loaded GTK"
grep -q 'libafg-ui' "$tmp/ld.log" && fail "--version loaded the window module"
echo "ok: the command line loads neither GTK nor the window module"

# A copy of the executable with no ui/ beside it looks where it is installed.
installed=$(strings "$exe" | grep '/ascend-flamegraph$' | grep '^/' | head -n1)
if [ -n "$installed" ] && [ -e "$installed/libafg-ui.so" ]; then
  fail "a module is installed at $installed: this test needs a machine without one"
fi
cp "$exe" "$tmp/ascend-flamegraph"
DISPLAY=:0 "$tmp/ascend-flamegraph" "$tmp/none.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "exit status $rc without the module, want 1: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 2 ] || fail "want an error and a hint line, got: $(cat "$tmp/err")"
sed -n 1p "$tmp/err" | grep -q '^ascend-flamegraph: error: cannot load the window: .*libafg-ui.so' \
  || fail "first line: $(sed -n 1p "$tmp/err")"
sed -n 2p "$tmp/err" | grep -q '^ascend-flamegraph: hint: .*--export' || fail "second line: $(sed -n 2p "$tmp/err")"
echo "ok: without the module: $(sed -n 1p "$tmp/err")"

# The module beside it in ui/ (a build tree's layout) is found.
mkdir "$tmp/ui" && cp "$module" "$tmp/ui/libafg-ui.so"
env -u DISPLAY -u WAYLAND_DISPLAY "$tmp/ascend-flamegraph" "$tmp/none.db" >"$tmp/out" 2>"$tmp/err"
grep -q 'no display' "$tmp/err" || fail "with ui/libafg-ui.so beside it: $(cat "$tmp/err")"
echo "ok: the module beside the executable is loaded (it then reports no display)"
