#!/bin/bash
# Installs what building, running and testing need on Debian 12 (as root,
# or through sudo), then the pinned npm packages of package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  gcc meson ninja-build pkg-config gettext
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libjson-glib-dev libsqlite3-dev sqlite3
  xvfb xauth xdotool imagemagick x11-utils chromium
  desktop-file-utils appstream shared-mime-info xdg-utils locales util-linux time dbus-daemon
  libxml2-utils valgrind clang-14 libclang-rt-14-dev fonts-wqy-microhei
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Node may come from another repository that bundles npm: ask for commands.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The zh_CN tests run the CLI and the window under LANG=zh_CN.UTF-8.
if ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
  $sudo sed -i 's/^# *zh_CN.UTF-8 UTF-8/zh_CN.UTF-8 UTF-8/' /etc/locale.gen
  grep -q '^zh_CN.UTF-8 UTF-8' /etc/locale.gen || echo 'zh_CN.UTF-8 UTF-8' | $sudo tee -a /etc/locale.gen >/dev/null
  $sudo locale-gen >/dev/null
fi
if [ -f package-lock.json ] && ! npm ls --silent >/dev/null 2>&1; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent
fi
