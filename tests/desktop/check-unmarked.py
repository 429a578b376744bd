#!/usr/bin/env python3
"""check-unmarked.py SOURCE_ROOT: fail on user-visible strings that cannot be translated.

1. A string literal passed to a user-visible call (labels, titles, tooltips,
   errors, messages on stderr, about-dialog properties) not wrapped in
   _() / N_() / C_() / NC_() / g_dngettext().
2. A translatable string with a macro spliced in, such as
   _("%" G_GUINT64_FORMAT " rows"): xgettext cuts the msgid at the macro, so
   the catalog never matches the string the program looks up. Use <inttypes.h>
   PRIu64, which xgettext and gettext understand, or format the number first.
3. A .ui label, title, tooltip or placeholder without translatable="yes".
4. A file that marks strings but is missing from po/POTFILES.in, or a
   POTFILES.in entry that does not exist.
Run with --self-test to see each rule catch a planted mistake.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

MARKERS = {'_', 'N_', 'C_', 'NC_', 'g_dngettext', 'g_dgettext', 'g_dpgettext2', 'ngettext'}

# function -> 0-based indices of the arguments a user reads
VISIBLE_ARGS = {
    'gtk_label_new': [0], 'gtk_label_new_with_mnemonic': [0],
    'gtk_label_set_text': [1], 'gtk_label_set_label': [1], 'gtk_label_set_markup': [1],
    'gtk_label_set_text_with_mnemonic': [1], 'gtk_label_set_markup_with_mnemonic': [1],
    'gtk_window_set_title': [1],
    'gtk_button_new_with_label': [0], 'gtk_button_new_with_mnemonic': [0],
    'gtk_button_set_label': [1], 'gtk_check_button_new_with_label': [0],
    'gtk_check_button_set_label': [1], 'gtk_menu_button_set_label': [1],
    'gtk_widget_set_tooltip_text': [1], 'gtk_widget_set_tooltip_markup': [1],
    'gtk_tooltip_set_text': [1], 'gtk_tooltip_set_markup': [1],
    'gtk_entry_set_placeholder_text': [1], 'gtk_search_entry_set_placeholder_text': [1],
    'gtk_text_set_placeholder_text': [1], 'gtk_progress_bar_set_text': [1],
    'gtk_file_chooser_native_new': [0, 3, 4], 'gtk_file_chooser_dialog_new': [0],
    'gtk_file_filter_set_name': [1], 'gtk_stack_add_titled': [3], 'gtk_stack_page_set_title': [1],
    'gtk_string_list_append': [1], 'gtk_message_dialog_new': [4],
    'g_menu_append': [1], 'g_menu_prepend': [1], 'g_menu_insert': [2], 'g_menu_item_new': [0],
    'g_notification_new': [0], 'g_notification_set_body': [1],
    'g_set_application_name': [0], 'g_option_context_new': [0],
    'g_option_context_set_summary': [1], 'g_option_context_set_description': [1],
    'g_set_error': [3], 'g_set_error_literal': [3], 'g_error_new': [2], 'g_error_new_literal': [2],
    'g_prefix_error': [1], 'g_propagate_prefixed_error': [2],
    'g_print': [0], 'g_printerr': [0], 'printf': [0], 'fprintf': [1], 'puts': [0], 'fputs': [0],
}
# Calls taking "property", value pairs after the first argument(s).
PROPERTY_CALLS = {'gtk_show_about_dialog': 1, 'g_object_set': 1, 'g_object_new': 1}
VISIBLE_PROPERTIES = {
    'program-name', 'comments', 'title', 'label', 'tooltip-text', 'tooltip-markup',
    'placeholder-text', 'website-label', 'translator-credits', 'subtitle', 'description',
    'text', 'secondary-text', 'heading', 'body', 'copyright',
}
UI_PROPERTIES = {
    'label', 'title', 'tooltip-text', 'tooltip-markup', 'placeholder-text', 'text', 'subtitle',
    'description', 'secondary-text', 'heading', 'body', 'comments', 'program-name',
}
# Literals a user never reads as words: add one here only with a reason.
ALLOWLIST = {
    'ascend-flamegraph',  # the command's own name, printed as a message prefix
    # A corrupt built-in page resource: only a broken build reaches it.
    'flamegraph.html: unknown marker %.*s',
}

FORMAT_RE = re.compile(r"%[-+ #0']*(\d+|\*)?(\.(\d+|\*))?(hh|h|ll|l|L|z|j|t)?[diouxXeEfFgGaAcspn%]")
TOKEN_RE = re.compile(r'''
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<char>'(?:\\.|[^'\\\n])+')
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\d[\w.]*)
  | (?P<punct>->|[(){}\[\],;]|[^\s\w])
''', re.S | re.X)


def tokenize(text):
    toks = []
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind == 'comment':
            continue
        line = text.count('\n', 0, m.start()) + 1
        toks.append((kind, m.group(kind), line))
    return toks


def split_args(toks, open_index):
    """Arguments of the call whose '(' is at open_index, as token lists."""
    args, cur, depth = [], [], 0
    for tok in toks[open_index + 1:]:
        if tok[1] in '([{':
            depth += 1
        elif tok[1] in ')]}':
            if depth == 0:
                args.append(cur)
                return args
            depth -= 1
        elif tok[1] == ',' and depth == 0:
            args.append(cur)
            cur = []
            continue
        cur.append(tok)
    return args


def literal_text(arg):
    """The concatenated top-level string literals of an argument, or None if it is marked."""
    if len(arg) >= 2 and arg[0][0] == 'ident' and arg[0][1] in MARKERS and arg[1][1] == '(':
        return None
    parts, depth = [], 0
    for kind, value, _ in arg:
        if value in '([{':
            depth += 1
        elif value in ')]}':
            depth -= 1
        elif kind == 'string' and depth == 0:
            parts.append(value[1:-1])
    return ''.join(parts) if parts else None


def is_words(text):
    if text in ALLOWLIST:
        return False
    bare = FORMAT_RE.sub('', text)
    bare = re.sub(r'\\.', ' ', bare)
    return re.search(r'[A-Za-z]{2,}', bare) is not None


def check_c(path, text):
    problems = []
    toks = tokenize(text)
    for i, (kind, value, line) in enumerate(toks):
        if kind != 'ident' or i + 1 >= len(toks) or toks[i + 1][1] != '(':
            continue
        if i > 0 and toks[i - 1][1] in ('->', '.'):
            continue
        args = split_args(toks, i + 1)
        if value in MARKERS:
            for arg in args:
                inner = [t for t in arg if t[0] in ('string', 'ident')]
                kinds = [t[0] for t in inner]
                if 'string' in kinds and 'ident' in kinds:
                    macro = next(t[1] for t in inner if t[0] == 'ident')
                    if not macro.startswith('PRI'):
                        problems.append('%s:%d: %s() splices the macro %s into a translatable '
                                        'string; xgettext cuts the msgid there (use PRIu64 from '
                                        '<inttypes.h>)' % (path, line, value, macro))
            continue
        checks = []
        if value in VISIBLE_ARGS:
            checks = [(n, args[n]) for n in VISIBLE_ARGS[value] if n < len(args)]
        elif value in PROPERTY_CALLS:
            rest = args[PROPERTY_CALLS[value]:]
            for n in range(0, len(rest) - 1, 2):
                name = literal_text(rest[n])
                if name in VISIBLE_PROPERTIES:
                    checks.append((PROPERTY_CALLS[value] + n + 1, rest[n + 1]))
        for n, arg in checks:
            text_ = literal_text(arg)
            if text_ is not None and is_words(text_):
                problems.append('%s:%d: unmarked string in %s() argument %d: "%s"'
                                % (path, arg[0][2] if arg else line, value, n + 1, text_))
    return problems


def check_ui(path, text):
    problems = []
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        return ['%s: not well-formed: %s' % (path, e)]
    for el in root.iter():
        if el.tag not in ('property', 'attribute') or el.get('name') not in UI_PROPERTIES:
            continue
        if el.tag == 'attribute' and el.get('name') != 'label':
            continue
        value = (el.text or '').strip()
        if value and el.get('translatable') != 'yes' and is_words(value):
            problems.append('%s: <%s name="%s"> "%s" lacks translatable="yes"'
                            % (path, el.tag, el.get('name'), value))
    return problems


MARK_RE = re.compile(r'\b(N?C?_|NC_|g_dngettext|g_dpgettext2)\s*\(\s*"|translatable="yes"')


def check_potfiles(root):
    problems = []
    potfiles = os.path.join(root, 'po', 'POTFILES.in')
    listed = set()
    with open(potfiles, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                listed.add(line)
                if not os.path.exists(os.path.join(root, line)):
                    problems.append('po/POTFILES.in lists %s, which does not exist' % line)
    candidates = (glob.glob(os.path.join(root, 'src', '**', '*.c'), recursive=True)
                  + glob.glob(os.path.join(root, 'ui', '*.ui')))
    for path in sorted(candidates):
        rel = os.path.relpath(path, root)
        with open(path, encoding='utf-8') as f:
            if MARK_RE.search(f.read()) and rel not in listed:
                problems.append('%s marks strings for translation but is not in po/POTFILES.in' % rel)
    for path in sorted(glob.glob(os.path.join(root, 'data', '*.in'))
                       + glob.glob(os.path.join(root, 'data', '*.gschema.xml'))):
        rel = os.path.relpath(path, root)
        if rel not in listed:
            problems.append('%s is not in po/POTFILES.in' % rel)
    return problems


def check_tree(root):
    problems = []
    for pattern in ('src/*.c', 'src/ui/*.c', 'src/core/*.c'):
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path, encoding='utf-8') as f:
                problems += check_c(os.path.relpath(path, root), f.read())
    for path in sorted(glob.glob(os.path.join(root, 'ui', '*.ui'))):
        with open(path, encoding='utf-8') as f:
            problems += check_ui(os.path.relpath(path, root), f.read())
    return problems + check_potfiles(root)


SELF_TEST_C = r'''
static void f (GtkWindow *w, GtkLabel *l, GError **error, guint64 n)
{
  gtk_window_set_title (w, "Unmarked Title");                 /* caught */
  gtk_label_set_text (l, _("Marked"));
  gtk_label_set_text (l, "");
  g_printerr ("%s: %s\n", PROG, _("error"));
  g_set_error (error, D, 1, "cannot open %s", path);          /* caught */
  g_printerr (_("%" G_GUINT64_FORMAT " rows\n"), n);           /* caught */
  g_printerr (_("%" PRIu64 " rows\n"), n);
  gtk_show_about_dialog (w, "program-name", "Unmarked", "version", "1.0", NULL); /* caught */
}
'''
SELF_TEST_UI = '''<interface><object class="GtkLabel">
  <property name="label">Unmarked label</property>
  <property name="label" translatable="yes">Marked label</property>
  <property name="icon-name">document-open-symbolic</property>
</object></interface>'''


def self_test():
    got = check_c('fixture.c', SELF_TEST_C) + check_ui('fixture.ui', SELF_TEST_UI)
    for p in got:
        print('# caught:', p)
    want = ['"Unmarked Title"', '"cannot open %s"', 'G_GUINT64_FORMAT', '"Unmarked"',
            '"Unmarked label"']
    missed = [w for w in want if not any(w in p for p in got)]
    if missed or len(got) != len(want):
        print('FAIL: the checker missed %s or over-reported (%d problems for %d planted)'
              % (missed, len(got), len(want)))
        return 1
    print('ok: the checker catches all %d planted mistakes and nothing else' % len(want))
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ['AFG_SOURCE_ROOT']
    problems = check_tree(root)
    for p in problems:
        print('FAIL: ' + p)
    if problems:
        print('%d strings a zh_CN user would see in English (see the header of %s)'
              % (len(problems), os.path.basename(__file__)))
        return 1
    print('ok: no unmarked user-visible strings')
    return 0


if __name__ == '__main__':
    sys.exit(main())
