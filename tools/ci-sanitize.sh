#!/bin/bash
# Sanitizer, leak and fuzz checks for CI, called from .ci/run:
#  1. a second tree built with -Db_sanitize=address,undefined runs the whole
#     meson test suite, halting on the first report (GUI tests bring their
#     own Xvfb wrappers);
#  2. the CLI of a plain build exports both samples in every format, and
#     refuses a truncated DB, under valgrind --leak-check=full;
#  3. a 60-second libFuzzer smoke of the loader (clang, -Dfuzzing=true);
#  4. a 60-second run of the differential fuzzer: every input loaded by
#     the direct b-tree reader and by SQLite alone, any difference fails;
#  5. a 60-second run of the rank summary reader's fuzzer (--merge-summaries'
#     input: refused, or read and written back byte for byte).
# Build directories: AFG_ASAN_BUILD (build-asan), AFG_TEST_BUILD
# (_build-tests, shared with tools/run-tests.sh), AFG_FUZZ_BUILD
# (build-fuzz). AFG_FUZZ_SECONDS overrides the 60 s of each fuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."

asan_build=${AFG_ASAN_BUILD:-build-asan}
plain_build=${AFG_TEST_BUILD:-_build-tests}
fuzz_build=${AFG_FUZZ_BUILD:-build-fuzz}
fuzz_seconds=${AFG_FUZZ_SECONDS:-60}
samples=$PWD/tests/data
lsan_supp=$PWD/tests/hostile/lsan.supp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS
# Every step runs even when an earlier one failed; the exit status says
# whether any did.
failed=()

step () { printf '\n== %s (%d s)\n' "$*" $((SECONDS - started)); }

setup () {
  local dir=$1; shift
  [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
  ninja -C "$dir" >/dev/null
}

step "ASan + UBSan build: $asan_build"
setup "$asan_build" -Db_sanitize=address,undefined
# GLib's type system and GTK's caches live until exit by design: the
# suppressions name only those, so a real leak still halts.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$lsan_supp:print_suppressions=0
meson test -C "$asan_build" --print-errorlogs --num-processes 2 --timeout-multiplier 3 \
  || failed+=("sanitized test suite")
unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS

step "valgrind: the CLI on both samples ($plain_build)"
setup "$plain_build"
for db in "$samples"/*.db; do
  for format in html json folded; do
    G_SLICE=always-malloc G_DEBUG=gc-friendly \
      valgrind -q --leak-check=full --error-exitcode=1 \
      "$plain_build/src/ascend-flamegraph" --export -q -f "$format" -o "$work/valgrind" "$db" \
      && echo "ok: $(basename "$db") -f $format" || failed+=("valgrind $(basename "$db") -f $format")
  done
done
# The error path too: a truncated copy must be refused (exit 1) cleanly.
head -c 4096 "$samples/ascend_pytorch_profiler_level0_rank0.db" > "$work/truncated.db"
status=0
G_SLICE=always-malloc G_DEBUG=gc-friendly valgrind -q --leak-check=full --error-exitcode=99 \
  "$plain_build/src/ascend-flamegraph" --export -q -o "$work/valgrind" "$work/truncated.db" 2>/dev/null \
  || status=$?
[ "$status" = 1 ] && echo "ok: truncated DB refused" || failed+=("valgrind truncated DB: exit $status")

# $1: the harness, $2: its name in the log, $3: its seed corpus (default
# fuzz/corpus), $4: its dictionary, if any. Each fuzzes its own copy of
# the corpus: new inputs land in $work, never in the committed corpus.
# UBSan reports are recoverable by default: without halt_on_error
# libFuzzer would print them and go on.
# TMPDIR: whatever the harness leaves (it cannot clean up after an abort)
# goes with $work. The malloc fill and quarantine options: see fuzz/README.md.
fuzz () {
  local harness=$1 name=$2 seeds=${3:-fuzz/corpus} dict=()
  [ -z "${4:-}" ] || dict=(-dict="$PWD/$4")
  mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
  cp "$seeds"/* "$work/$name/corpus/"
  (cd "$work/$name" && TMPDIR=$work ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:max_malloc_fill_size=0:quarantine_size_mb=16 \
     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$OLDPWD/$fuzz_build/fuzz/$harness" -max_total_time="$fuzz_seconds" \
     -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" "${dict[@]}" \
     corpus 2>"$work/$name.log") || { tail -50 "$work/$name.log"; failed+=("$name"); }
  grep -E 'stat::number_of_executed_units|Done' "$work/$name.log" || true
  if [ -n "$(ls -A "$work/$name/artifacts")" ]; then
    mkdir -p "$asan_build/fuzz-artifacts/$name"
    cp "$work/$name"/artifacts/* "$asan_build/fuzz-artifacts/$name/"
    failed+=("$name inputs, kept in $asan_build/fuzz-artifacts/$name")
  fi
}

step "fuzz smoke: ${fuzz_seconds} s ($fuzz_build)"
CC=clang-14 setup "$fuzz_build" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false -Dgui=disabled
fuzz afg-fuzz-loader fuzz-smoke

step "differential fuzz: ${fuzz_seconds} s ($fuzz_build)"
fuzz afg-fuzz-differential differential-fuzz

step "summary fuzz: ${fuzz_seconds} s ($fuzz_build)"
fuzz afg-fuzz-summary summary-fuzz fuzz/corpus-summary fuzz/summary.dict

step "done"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all sanitizer, valgrind and fuzz checks passed"
