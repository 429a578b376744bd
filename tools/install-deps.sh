#!/bin/bash
# Installs what building, running and testing need on Debian 12 (as root,
# or through sudo), then the pinned npm packages of package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  gcc meson ninja-build pkg-config gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libjson-glib-dev libsqlite3-dev sqlite3
  xvfb xauth xdotool imagemagick x11-utils chromium nodejs npm
  desktop-file-utils appstream shared-mime-info xdg-utils locales util-linux time
  libxml2-utils valgrind clang-14 libclang-rt-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -f package-lock.json ] && ! npm ls --silent >/dev/null 2>&1; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent
fi
