#!/bin/sh
# test-po.sh LANG: po/LANG.po is complete and clean against the current
# sources. msgfmt must report no untranslated or fuzzy message and no
# warning, both for the committed file and after merging it with a template
# extracted now (so a string added to the code without a translation fails
# here, not in front of a user).
set -u
lang=$1
root=${AFG_SOURCE_ROOT:?}
pkg=${AFG_GETTEXT_PACKAGE:?}
po=$root/po/$lang.po
status=0
fail () { echo "FAIL: $*" >&2; exit 1; }
problem () { echo "FAIL: $*" >&2; status=1; }

for t in msgfmt xgettext msgmerge msgattrib; do
  command -v "$t" >/dev/null 2>&1 || fail "$t is not installed (apt-get install gettext)"
done
[ -f "$po" ] || fail "$po does not exist"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# check_stats FILE LABEL: msgfmt --check --statistics must say only "N translated messages."
check_stats () {
  LC_ALL=C msgfmt --check --statistics -o /dev/null "$1" >"$tmp/stats" 2>&1 \
    || fail "$2: msgfmt --check failed: $(cat "$tmp/stats")"
  cat "$tmp/stats"
  grep -qx '[0-9]* translated messages\.' "$tmp/stats" || {
    msgattrib --untranslated --no-obsolete "$1" >"$tmp/untranslated" 2>/dev/null
    msgattrib --only-fuzzy --no-obsolete "$1" >"$tmp/fuzzy" 2>/dev/null
    problem "$2 is not complete or not clean: $(tr '\n' ' ' <"$tmp/stats")
untranslated:
$(grep '^msgid' "$tmp/untranslated")
fuzzy:
$(grep '^msgid' "$tmp/fuzzy")"
  }
}

echo "# committed $lang.po"
check_stats "$po" "po/$lang.po"

# The same extraction as i18n.gettext(preset: 'glib') in po/meson.build.
echo "# merged with a template extracted from po/POTFILES.in now"
(cd "$root" && xgettext --package-name="$pkg" -D "$root" -f po/POTFILES.in -o "$tmp/$pkg.pot" \
  --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=g_dcgettext:2 \
  --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format --flag=g_print:1:c-format \
  --flag=g_printerr:1:c-format --flag=g_printf:1:c-format --flag=g_fprintf:2:c-format \
  --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format) 2>"$tmp/xgettext.log" \
  || fail "xgettext failed: $(cat "$tmp/xgettext.log")"
if [ -s "$tmp/xgettext.log" ]; then
  problem "xgettext warned (a translatable string the catalog cannot carry as written):
$(cat "$tmp/xgettext.log")"
fi
msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" "$po" "$tmp/$pkg.pot" \
  || fail "msgmerge failed"
check_stats "$tmp/merged.po" "po/$lang.po merged with the current sources"
obsolete=$(msgattrib --only-obsolete "$tmp/merged.po" | grep -c '^#~ msgid')
[ "$obsolete" -eq 0 ] || echo "# note: $obsolete obsolete messages; run meson compile ${pkg}-update-po"
[ "$status" -eq 0 ] && echo "ok: po/$lang.po complete and clean"
exit "$status"
