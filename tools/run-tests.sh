#!/bin/bash
# Installs what is missing, builds and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh test
build=${AFG_TEST_BUILD:-_build-tests}
[ -d "$build" ] || meson setup "$build" -Dtests=enabled >/dev/null
ninja -C "$build"
status=0
meson test -C "$build" --print-errorlogs --num-processes 2 "$@" || status=$?
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1])]
ok = sum(r in ("OK", "EXPECTEDFAIL") for r in results)
skip = sum(r == "SKIP" for r in results)
print(f"meson: {ok} passed, {len(results) - ok - skip} failed, {skip} skipped")
PY
exit $status
