#!/bin/sh
# prefix-install.sh: configure this source tree in its own build directory with
# --prefix under the build tree, build what `meson install` installs, install
# it there and print the prefix. The installed binary then finds its
# translations at its own LOCALEDIR, as after a real install. Serialised with
# flock: several tests share the one prefix.
set -eu
root=${AFG_SOURCE_ROOT:?}
base=${AFG_BUILD_ROOT:?}/tests/desktop
nb=$base/prefix-build
prefix=$base/prefix

for t in meson:meson ninja:ninja-build flock:util-linux; do
  command -v "${t%%:*}" >/dev/null 2>&1 \
    || { echo "FAIL: ${t%%:*} is not installed (apt-get install ${t#*:})" >&2; exit 1; }
done

mkdir -p "$base"
exec 9>"$base/prefix.lock"
flock 9

log=$base/prefix-install.log
: >"$log"
if [ ! -f "$nb/build.ninja" ]; then
  rm -rf "$nb"
  meson setup --prefix="$prefix" -Dgui=enabled "$nb" "$root" >>"$log" 2>&1 \
    || { cat "$log" >&2; echo "FAIL: meson setup of the prefix build failed" >&2; exit 1; }
fi
# Regenerated first: the list of what is installed comes from the build
# files, stale after a meson.build changed.
ninja -C "$nb" build.ninja >>"$log" 2>&1 \
  || { tail -40 "$log" >&2; echo "FAIL: regenerating the prefix build failed" >&2; exit 1; }
# Build only what is installed: the project's test programs are not needed here.
targets=$(meson introspect --installed "$nb" | python3 -c '
import json, os, sys
nb = os.path.realpath(sys.argv[1])
for src in json.load(sys.stdin):
    if os.path.realpath(src).startswith(nb + os.sep):
        print(os.path.relpath(os.path.realpath(src), nb))
' "$nb")
# shellcheck disable=SC2086 # one target per word
ninja -C "$nb" $targets >>"$log" 2>&1 \
  || { tail -40 "$log" >&2; echo "FAIL: building the installed targets failed" >&2; exit 1; }
rm -rf "$prefix"
meson install -C "$nb" --no-rebuild >>"$log" 2>&1 \
  || { tail -40 "$log" >&2; echo "FAIL: meson install into $prefix failed" >&2; exit 1; }
echo "$prefix"
