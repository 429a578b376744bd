#!/bin/bash
# tools/install-deps.sh build|test [--print]: installs what is missing on
# Debian 12 (as root, or through sudo).
#   build  what building and running the program need (tools/demo.sh, a
#          GNOME install): compiler, meson, the -dev packages, and the tools
#          that meson's install step looks for when it configures.
#   test   the build set, plus what tools/run-tests.sh and
#          tools/ci-sanitize.sh need: Xvfb and xdotool, Chromium and the
#          pinned npm packages, valgrind, clang and its sanitizer runtimes,
#          the validators, the zh_CN locale and a CJK font.
# --print lists the Debian packages of the set and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# update-desktop-database and update-mime-database are looked up by
# gnome.post_install() when meson configures, and shared-mime-info holds the
# ITS rules that translate the MIME type's name; librsvg2-common draws the
# SVG icons in the window.
build_packages=(
  gcc libc6-dev meson ninja-build pkg-config gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libjson-glib-dev libsqlite3-dev
  desktop-file-utils shared-mime-info librsvg2-common
)
# valgrind, clang-14 and libclang-rt-14-dev: tools/ci-sanitize.sh; sqlite3:
# tools/bench-core.sh's floor.
test_packages=(
  xvfb xauth xdotool imagemagick x11-utils chromium dbus-daemon
  appstream xdg-utils libxml2-utils locales util-linux time fonts-wqy-microhei
  valgrind clang-14 libclang-rt-14-dev sqlite3
)

usage () {
  echo "usage: tools/install-deps.sh build|test [--print]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
case $1 in
  build) packages=("${build_packages[@]}") ;;
  test) packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) usage ;;
esac
set=$1
shift
if [ "${1:-}" = --print ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
[ $# -eq 0 ] || usage

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "$set" = test ]; then
  # Node may come from another repository that bundles npm: ask for commands.
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ($set): ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "$set" = test ] || exit 0

# The zh_CN tests run the CLI and the window under LANG=zh_CN.UTF-8.
if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
  $sudo sed -i 's/^# *zh_CN.UTF-8 UTF-8/zh_CN.UTF-8 UTF-8/' /etc/locale.gen
  grep -q '^zh_CN.UTF-8 UTF-8' /etc/locale.gen || echo 'zh_CN.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen >/dev/null
  $sudo locale-gen >/dev/null
fi
if [ -f package-lock.json ] && ! npm ls --silent >/dev/null 2>&1; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent
fi
