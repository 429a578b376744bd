#!/bin/sh
# test-repository.sh SOURCE-ROOT: the files a fresh clone must hold.
# The suite passes with nothing beside the clone: no file names the directory
# the samples once came from, and tests/data holds both real DBs, every
# expected file the tests use, their licence and the notice naming their
# origin. LICENSE is the MIT text that meson.build declares. The shell
# commands of README.md, HACKING.md and docs/ sit inside their indented code
# blocks, and their links reach files that exist.
set -u
root=${1:?usage: test-repository.sh SOURCE-ROOT}
cd "$root" || exit 1
fail () { echo "FAIL: $*" >&2; status=1; }
status=0

# Split, so that this file does not match itself.
outside='\.\./'"shared"'\|'"shared"'/samples'
if [ -e .git ] && command -v git >/dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard)
else
  files=$(find . -path ./node_modules -prune -o -path './_build*' -prune -o -path './build*' -prune \
            -o -type f -print)
fi
hits=$(printf '%s\n' "$files" | grep -v '^tests/data/.*\.\(db\|expected\)$' \
         | while IFS= read -r f; do [ -f "$f" ] && grep -l -e "$outside" "$f"; done)
[ -z "$hits" ] || fail "these files reach outside the repository for samples:
$hits"

for name in level0_rank0 level1_rank0; do
  base=tests/data/ascend_pytorch_profiler_$name
  for suffix in .db .expected .npu.expected .merged.expected .functions.expected \
                .durations.expected; do
    [ -s "$base$suffix" ] || fail "$base$suffix is missing or empty"
  done
done
for f in tests/data/ascend_pytorch_profiler_level1_rank0.step50.expected \
         tests/data/level0_rank0-vs-level1_rank0.diff.expected tests/data/LICENSE-MulanPSL2; do
  [ -s "$f" ] || fail "$f is missing or empty"
done
grep -q 'Mulan Permissive Software License' tests/data/LICENSE-MulanPSL2 \
  || fail "tests/data/LICENSE-MulanPSL2 is not the Mulan PSL v2 text"
for needle in Ascend/msinsight 'Mulan PSL v2' LICENSE-MulanPSL2 \
              rank0_ascend_pt/ASCEND_PROFILER_OUTPUT; do
  grep -qF "$needle" tests/data/README.md || fail "tests/data/README.md does not name $needle"
done
ls tests/data | grep -q -e '-wal$' -e '-shm$' -e '-journal$' \
  && fail "tests/data holds SQLite side files (a test opened a sample for writing)"
# The metainfo states the size its screenshot really has.
png=docs/screenshot-window.png
real=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%d %d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')
said=$(sed -n 's/.*width="\([0-9]*\)" height="\([0-9]*\)">.*screenshot-window\.png.*/\1 \2/p' \
       data/io.github.ascend_flamegraph.AscendFlameGraph.metainfo.xml.in)
[ "$real" = "$said" ] || fail "the metainfo gives $png as ${said:-no size}, the file is $real"
grep -q 'MIT License' LICENSE 2>/dev/null || fail "LICENSE (MIT) is missing"
grep -q 'Copyright (c) The Ascend Flame Graph authors' LICENSE 2>/dev/null \
  || fail "LICENSE does not name The Ascend Flame Graph authors"
# A command at column 0 is outside its code block (Markdown shows it as text).
docs=$(printf '%s ' README.md HACKING.md docs/*.md)
# shellcheck disable=SC2086 # the list of Markdown files is split on purpose
loose=$(grep -n -E '^(meson|ninja|sudo|bash|xdg-mime|gsettings|LANG=|_build/|tools/|build-rel/|node|npm|RUNS=|ascend-flamegraph)[^ ]* ' $docs)
[ -z "$loose" ] || fail "commands outside a code block (indent them by 4):
$loose"
# The user guide is split over docs/: every relative link of README.md,
# HACKING.md and docs/ reaches a file of the repository.
for md in $docs; do
  dir=$(dirname "$md")
  for link in $(grep -o '](\([^)#]*\)[)#]' "$md" | sed 's/^](//; s/[)#]$//' | grep -v '^[a-z]*:' | sort -u); do
    [ -e "$dir/$link" ] || fail "$md links to $link, which is missing"
  done
done
# The demo installs only what building and running need; the tests and
# tools/ci-sanitize.sh get their tools from the test set.
build_set=$(bash tools/install-deps.sh build --print) || fail "tools/install-deps.sh build --print failed"
test_set=$(bash tools/install-deps.sh test --print) || fail "tools/install-deps.sh test --print failed"
for p in chromium valgrind clang-14 libclang-rt-14-dev xvfb xauth xdotool imagemagick appstream \
         locales libxml2-utils fonts-wqy-microhei dbus-daemon; do
  printf '%s\n' "$build_set" | grep -qx -- "$p" && fail "the build set installs $p, which only the tests need"
  printf '%s\n' "$test_set" | grep -qx -- "$p" || fail "the test set lacks $p"
done
for p in $build_set; do
  printf '%s\n' "$test_set" | grep -qx -- "$p" || fail "the test set lacks $p of the build set"
done
bash tools/install-deps.sh >/dev/null 2>&1; [ $? -eq 2 ] || fail "tools/install-deps.sh without a set is not a usage error"
grep -qx 'tools/install-deps.sh build' tools/demo.sh || fail "tools/demo.sh does not install the build set"
grep -qx 'tools/install-deps.sh test' tools/run-tests.sh || fail "tools/run-tests.sh does not install the test set"
grep -q 'tools/run-tests.sh' .ci/run && grep -q 'tools/ci-sanitize.sh' .ci/run \
  || fail ".ci/run no longer runs tools/run-tests.sh and tools/ci-sanitize.sh"
[ "$status" -eq 0 ] && echo "ok: install-deps build/test sets; self-contained; tests/data complete; LICENSE; docs code blocks and links"
exit "$status"
