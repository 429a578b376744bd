#!/bin/bash
# Installs what is missing, builds, makes a demo profile and shows its flame
# graph: in the window when a display is there, else exported to HTML.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh build
[ -d _build ] || meson setup _build >/dev/null
# Only what the demo runs: the tests, when their tools are installed, are
# the test command's to build.
ninja -C _build src/ascend-flamegraph tools/afg-gen-db >/dev/null
demo=_build/demo/ascend_pytorch_profiler_0.db
mkdir -p _build/demo
[ -f "$demo" ] || _build/tools/afg-gen-db "$demo" 200000 >/dev/null
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && grep -q 'HAVE_GUI 1' _build/config.h; then
  exec _build/src/ascend-flamegraph "$demo"
fi
_build/src/ascend-flamegraph --export -o _build/demo "$demo"
echo "open $(pwd)/_build/demo/flamegraph.html in a browser"
