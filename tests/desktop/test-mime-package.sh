#!/bin/sh
# test-mime-package.sh MIME-XML: the shared-mime-info package is well-formed,
# compiles without a warning, and defines the profiler type as a sub-class of
# SQLite matched by the profiler's file name.
set -u
pkg=$1
type=application/x-ascend-pytorch-profiler
fail () { echo "FAIL: $*" >&2; exit 1; }

for t in xmllint:libxml2-utils update-mime-database:shared-mime-info; do
  command -v "${t%%:*}" >/dev/null 2>&1 || fail "${t%%:*} is not installed (apt-get install ${t#*:})"
done

xmllint --noout "$pkg" || fail "$pkg is not well-formed XML"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mime/packages"
cp "$pkg" "$tmp/mime/packages/"
XDG_DATA_DIRS=$tmp update-mime-database "$tmp/mime" 2>"$tmp/log" || fail "update-mime-database failed: $(cat "$tmp/log")"
[ -s "$tmp/log" ] && fail "update-mime-database warned: $(cat "$tmp/log")"

grep -qx "[0-9]*:$type:ascend_pytorch_profiler\*\.db" "$tmp/mime/globs2" \
  || fail "no glob ascend_pytorch_profiler*.db for $type in globs2: $(cat "$tmp/mime/globs2")"
weight=$(grep ":$type:" "$tmp/mime/globs2" | cut -d: -f1)
[ "$weight" -gt 50 ] || fail "glob weight $weight is not above the default 50"
grep -qx "$type application/vnd.sqlite3" "$tmp/mime/subclasses" \
  || fail "$type is not a sub-class of application/vnd.sqlite3"
grep -q "<comment xml:lang=\"zh_CN\">" "$tmp/mime/packages/$(basename "$pkg")" \
  || fail "the installed package has no zh_CN comment (is po/zh_CN.po merged?)"
echo "ok: $type, glob weight $weight, sub-class of application/vnd.sqlite3"
