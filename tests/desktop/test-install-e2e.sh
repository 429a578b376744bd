#!/bin/sh
# test-install-e2e.sh: install into a prefix, register the MIME and desktop
# databases there, check that a profiler DB maps to this app (and that a plain
# SQLite file does not), then open the DB the way a file manager does — gio
# launch of the installed desktop file under Xvfb — and wait for the window
# with the graph. Any missing tool is a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
app_id=${AFG_APP_ID:?}
type=application/x-ascend-pytorch-profiler
sample=ascend_pytorch_profiler_level0_rank0.db
fail () { echo "FAIL: $*" >&2; exit 1; }

under_x () {
  prefix=$1 tmp=$2 db=$tmp/files/$sample
  desktop=$prefix/share/applications/$app_id.desktop

  # stderr of gio launch is inherited by the app it starts: the debug log.
  AFG_TEST_STATE=1 G_MESSAGES_DEBUG=all gio launch "$desktop" "$db" >"$tmp/app.log" 2>&1 \
    || fail "gio launch $desktop failed: $(cat "$tmp/app.log")"
  wid=$(timeout 30 xdotool search --sync --onlyvisible --name "^$(echo "$sample" | sed 's/\./\\./g')\$" | head -n1)
  [ -n "$wid" ] || fail "no visible window titled $sample within 30 s; app log:
$(tail -20 "$tmp/app.log")"
  pid=$(xdotool getwindowpid "$wid" 2>/dev/null)
  i=0
  # The app's test state line (docs/test-state-line.md).
  until grep -q '^afg-state	page=graph	.*	zoom=All threads	' "$tmp/app.log"; do
    i=$((i + 1))
    [ "$i" -le 300 ] || fail "the window never showed the graph; app log:
$(tail -20 "$tmp/app.log")"
    sleep 0.1
  done
  sleep 0.5
  xdotool windowsize "$wid" 1200 720 2>/dev/null
  sleep 0.5
  import -window "$wid" "$tmp/window.png" 2>/dev/null || fail "could not capture the window"
  colours=$(convert "$tmp/window.png" -format %k info:)
  [ "$colours" -gt 64 ] || fail "the window looks empty ($colours colours)"
  if [ -n "${AFG_SCREENSHOT_DIR:-}" ]; then
    cp "$tmp/window.png" "$AFG_SCREENSHOT_DIR/screenshot-window.png"
  fi
  if [ -n "$pid" ]; then
    kill "$pid"
  else
    for p in /proc/[0-9]*; do
      [ "$(readlink "$p/exe" 2>/dev/null)" = "$prefix/bin/ascend-flamegraph" ] && kill "${p#/proc/}"
    done
  fi
  echo "ok: gio launch opened window $wid titled $sample showing the graph ($colours colours)"
}

if [ "${1:-}" = --under-x ]; then
  shift
  under_x "$@"
  exit $?
fi

for t in xvfb-run:xvfb xauth:xauth xdotool:xdotool gio:libglib2.0-bin xdg-mime:xdg-utils \
         update-mime-database:shared-mime-info update-desktop-database:desktop-file-utils \
         import:imagemagick convert:imagemagick; do
  command -v "${t%%:*}" >/dev/null 2>&1 || fail "${t%%:*} is not installed (apt-get install ${t#*:})"
done
[ -f "${AFG_SAMPLES_DIR:?}/$sample" ] || fail "sample $AFG_SAMPLES_DIR/$sample is missing"

prefix=$(sh "$here/prefix-install.sh") || fail "could not install into a prefix"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/files" "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp/runtime"

# A desktop session that sees only this prefix and the system's own data.
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
  XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" \
  XDG_DATA_DIRS="$prefix/share:/usr/share" XDG_CURRENT_DESKTOP=GNOME \
  PATH="$prefix/bin:$PATH"
unset DBUS_SESSION_BUS_ADDRESS

for f in bin/ascend-flamegraph share/applications/$app_id.desktop \
         share/metainfo/$app_id.metainfo.xml share/mime/packages/$app_id.xml \
         share/glib-2.0/schemas/$app_id.gschema.xml share/glib-2.0/schemas/gschemas.compiled \
         share/icons/hicolor/scalable/apps/$app_id.svg \
         share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg \
         share/locale/zh_CN/LC_MESSAGES/ascend-flamegraph.mo; do
  [ -e "$prefix/$f" ] || fail "meson install did not install $f"
done

update-mime-database "$prefix/share/mime" || fail "update-mime-database failed"
update-desktop-database "$prefix/share/applications" || fail "update-desktop-database failed"
grep -q "^$type=.*$app_id\.desktop" "$prefix/share/applications/mimeinfo.cache" \
  || fail "mimeinfo.cache does not list $app_id.desktop for $type"

cp "$AFG_SAMPLES_DIR/$sample" "$tmp/files/$sample"
cp "$AFG_SAMPLES_DIR/$sample" "$tmp/files/other.db"
chmod u+w "$tmp/files/"*

got=$(xdg-mime query filetype "$tmp/files/$sample")
[ "$got" = "$type" ] || fail "xdg-mime query filetype $sample: got '$got', want $type"
got=$(xdg-mime query filetype "$tmp/files/other.db")
[ "$got" = application/vnd.sqlite3 ] \
  || fail "a SQLite file not named like a profiler DB is '$got', want application/vnd.sqlite3"
got=$(xdg-mime query default "$type")
[ "$got" = "$app_id.desktop" ] || fail "xdg-mime query default $type: got '$got', want $app_id.desktop"
echo "ok: $sample is $type, other.db is application/vnd.sqlite3, default handler $got"

# xvfb-run -a races when two start at once (both take the first free number);
# starting the search at a number of our own makes that unlikely. -noreset:
# the next app must not start while the server resets behind the last one.
xvfb-run -a -n $((200 + $$ % 500)) -s '-noreset -screen 0 1280x800x24' sh "$0" --under-x "$prefix" "$tmp"
