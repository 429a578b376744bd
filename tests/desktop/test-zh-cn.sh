#!/bin/sh
# test-zh-cn.sh: the installed program speaks Simplified Chinese under
# LANG=zh_CN.UTF-8 — the CLI's error, hint and --help, and the GUI's window
# title and error page (under Xvfb) — and po/zh_CN.po uses the full-width
# colon ：in every Chinese message, as the CLI's lines then do. Needs the
# zh_CN.UTF-8 locale; a missing locale or tool is a failure, not a skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail () { echo "FAIL: $*" >&2; exit 1; }
# expect FILE TEXT WHAT: FILE contains TEXT
expect () { grep -qF -- "$2" "$1" || fail "$3: no \"$2\" in:
$(cat "$1")"; }

under_x () {
  prefix=$1 tmp=$2
  exe=$prefix/bin/ascend-flamegraph

  G_MESSAGES_DEBUG=all "$exe" >"$tmp/empty.log" 2>&1 &
  pid=$!
  wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^昇腾火焰图$' | head -n1)
  kill "$pid" 2>/dev/null
  [ -n "$wid" ] || fail "no window titled 昇腾火焰图 (the translated app name) within 30 s:
$(tail -20 "$tmp/empty.log")"

  AFG_TEST_STATE=1 "$exe" "$tmp/not-a-db.db" >"$tmp/error.log" 2>&1 &
  pid=$!
  i=0
  until grep -q '^afg-state	page=error	' "$tmp/error.log"; do
    i=$((i + 1))
    [ "$i" -le 300 ] || { kill "$pid" 2>/dev/null; fail "no error page for a non-SQLite file:
$(tail -20 "$tmp/error.log")"; }
    sleep 0.1
  done
  kill "$pid" 2>/dev/null
  expect "$tmp/error.log" "不是 SQLite 数据库" "GUI error page"
  echo "ok: GUI window title 昇腾火焰图; error page: $(grep -o 'error=..*' "$tmp/error.log" | tail -1)"
}

# ascii_colons PO: prints each Chinese msgstr with an ASCII colon (other
# than the "::" of aten:: and the "://" of a URL).
ascii_colons () {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read() + "\n"
for m in re.finditer(r'^msgstr ((?:".*"\n)+)', text, re.M):
    msgstr = "".join(re.findall(r'"(.*)"', m.group(1)))
    if re.search("[\u4e00-\u9fff]", msgstr) and re.search(r"(?<!:):(?![:/])", msgstr):
        print(msgstr)
PY
}

if [ "${1:-}" = --under-x ]; then
  shift
  under_x "$@"
  exit $?
fi

status=0
colons=$(ascii_colons "${AFG_SOURCE_ROOT:?}/po/zh_CN.po") || fail "could not read po/zh_CN.po"
if [ -n "$colons" ]; then
  echo "FAIL: po/zh_CN.po: use the full-width colon ：in Chinese messages, not ':' in:
$colons" >&2
  status=1
else
  echo "ok: po/zh_CN.po uses the full-width colon throughout"
fi

locale -a 2>/dev/null | grep -qix 'zh_CN\.utf-\{0,1\}8' || fail "the zh_CN.UTF-8 locale is not generated; as root:
  sed -i 's/^# *zh_CN.UTF-8 UTF-8/zh_CN.UTF-8 UTF-8/' /etc/locale.gen && locale-gen"
for t in xvfb-run:xvfb xauth:xauth xdotool:xdotool; do
  command -v "${t%%:*}" >/dev/null 2>&1 || fail "${t%%:*} is not installed (apt-get install ${t#*:})"
done

prefix=$(sh "$here/prefix-install.sh") || fail "could not install into a prefix"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/runtime" "$tmp/out"
chmod 700 "$tmp/runtime"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" XDG_CONFIG_HOME="$tmp/home/config" \
  XDG_CACHE_HOME="$tmp/home/cache" XDG_RUNTIME_DIR="$tmp/runtime" \
  XDG_DATA_DIRS="$prefix/share:/usr/share" LANG=zh_CN.UTF-8
unset LANGUAGE LC_ALL LC_MESSAGES DBUS_SESSION_BUS_ADDRESS
exe=$prefix/bin/ascend-flamegraph
printf 'this is not a database\n' >"$tmp/not-a-db.db"

"$exe" --export -o "$tmp/out" "$tmp/not-a-db.db" 2>"$tmp/cli.err"
[ $? -ne 0 ] || fail "the CLI accepted a file that is not a database"
expect "$tmp/cli.err" "错误" "CLI error label"
expect "$tmp/cli.err" "不是 SQLite 数据库" "CLI error message"
expect "$tmp/cli.err" "提示" "CLI hint label"
expect "$tmp/cli.err" "需要的是 torch_npu 性能分析工具写出的 SQLite 数据库" "CLI hint"
expect "$tmp/cli.err" "ascend-flamegraph：错误：" "CLI error line with full-width colons"
expect "$tmp/cli.err" "ascend-flamegraph：提示：" "CLI hint line with full-width colons"

"$exe" --export "$tmp/missing.db" 2>"$tmp/missing.err"
expect "$tmp/missing.err" "文件不存在" "CLI message for a missing file"
# The file name and its reason are joined by the full-width colon too.
expect "$tmp/missing.err" "missing.db：文件不存在" "CLI message: file name and reason"
expect "$tmp/cli.err" "not-a-db.db：不是 SQLite 数据库" "CLI message: file name and reason"

"$exe" --export --help >"$tmp/help.out" 2>&1
expect "$tmp/help.out" "不打开窗口，直接写出火焰图" "CLI --help"
expect "$tmp/help.out" "退出状态：" "CLI --help: exit status"
echo "ok: CLI in Chinese: $(head -n1 "$tmp/cli.err")"

# xvfb-run -a races when two start at once (both take the first free number);
# starting the search at a number of our own makes that unlikely. -noreset:
# the next app must not start while the server resets behind the last one.
xvfb-run -a -n $((200 + $$ % 500)) -s '-noreset -screen 0 1280x800x24' sh "$0" --under-x "$prefix" "$tmp" || status=1
exit "$status"
