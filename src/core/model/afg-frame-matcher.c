/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-frame-matcher.h"

G_DEFINE_QUARK (afg-transform-error-quark, afg_transform_error)

struct _AfgFrameMatcher {
  char   *name;    /* the full name, or NULL for a regex */
  GRegex *regex;
};

/* JavaScript's classes without the u flag are ASCII for \d and \w, but
 * GRegex reads them as Unicode classes: they are spelt out. */
#define JS_DIGIT "0-9"
#define JS_WORD  "A-Za-z0-9_"
#define JS_SPACE "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
#define JS_WORD_AT    "(?<=[" JS_WORD "])"
#define JS_NO_WORD_AT "(?<![" JS_WORD "])"
#define JS_WORD_NEXT    "(?=[" JS_WORD "])"
#define JS_NO_WORD_NEXT "(?![" JS_WORD "])"

typedef struct {
  const char *p;
  GString    *out;
  GString    *kinds;       /* open groups: 'c' capturing or plain, 'l' lookahead */
  gboolean    can_repeat;  /* what was just written takes a quantifier */
  char       *refusal;     /* why the pattern is refused, when it is */
} Translation;

static gboolean
refuse (Translation *t, const char *why)
{
  if (t->refusal == NULL)
    t->refusal = g_strdup (why);
  return FALSE;
}

/* JavaScript without the u flag sees a character past U+FFFF as two
 * UTF-16 units: `.`, `[^x]` or `\S` match one of them. GRegex matches
 * whole characters, so names and patterns both spell each unit as a
 * code point of its own, past every real one: a unit u stands as
 * HALF_BASE + (u - 0xD800), in plane 15, which no such spelt name
 * holds otherwise (its characters past U+FFFF are all spelt as units). */
#define HALF_BASE 0xF0000

static gboolean
is_astral (gunichar c)
{
  return c > 0xFFFF;
}

static void
put_halves (GString *out, gunichar c, gboolean as_pattern)
{
  gunichar units[2] = {
    HALF_BASE + ((c - 0x10000) >> 10),
    HALF_BASE + 0x400 + ((c - 0x10000) & 0x3FF),
  };

  for (guint i = 0; i < 2; i++)
    if (as_pattern)
      g_string_append_printf (out, "\\x{%X}", units[i]);
    else
      g_string_append_unichar (out, units[i]);
}

static gboolean
is_surrogate (gunichar c)
{
  return c >= 0xD800 && c <= 0xDFFF;
}

/* A UTF-16 unit the pattern names (\uD83D): the half it stands for in a
 * spelt name, so that \uD83D\uDE00 finds U+1F600 as in JavaScript. */
static void
put_char (GString *out, gunichar c)
{
  if (is_surrogate (c))
    g_string_append_printf (out, "\\x{%X}", HALF_BASE + (c - 0xD800));
  else if (is_astral (c))
    put_halves (out, c, TRUE);
  else if (c < 0x80 && g_ascii_isalnum ((char) c))
    g_string_append_c (out, (char) c);
  else
    g_string_append_printf (out, "\\x{%X}", c);
}

static gboolean
read_hex (Translation *t, guint digits, gunichar *c)
{
  *c = 0;
  for (guint i = 0; i < digits; i++)
    {
      if (!g_ascii_isxdigit (t->p[i]))
        return refuse (t, _("\\x takes two hex digits and \\u four"));
      *c = *c * 16 + (gunichar) g_ascii_xdigit_value (t->p[i]);
    }
  t->p += digits;
  return TRUE;
}

/* One character a class or a sequence stands for: an escape or a
 * literal. Characters past U+FFFF are refused in classes, where
 * JavaScript would take their halves as two members. */
static gboolean
read_char (Translation *t, gunichar *c)
{
  *c = g_utf8_get_char (t->p);
  t->p = g_utf8_next_char (t->p);
  if (*c != '\\')
    return TRUE;
  *c = g_utf8_get_char (t->p);
  if (*c == 0)
    return refuse (t, _("the pattern ends in a lone backslash"));
  t->p = g_utf8_next_char (t->p);
  switch (*c)
    {
    case 't': *c = '\t'; return TRUE;
    case 'n': *c = '\n'; return TRUE;
    case 'r': *c = '\r'; return TRUE;
    case 'f': *c = '\f'; return TRUE;
    case 'v': *c = 0x0B; return TRUE;
    case 'b': *c = 0x08; return TRUE;  /* only inside [ ]: a boundary outside */
    case 'x': return read_hex (t, 2, c);
    case 'u': return read_hex (t, 4, c);
    case '0':
      if (g_ascii_isdigit (*t->p))
        return refuse (t, _("octal escapes are read differently outside JavaScript"));
      *c = 0;  /* NUL, which no name holds (the readers repair it) */
      return TRUE;
    default:
      break;
    }
  if (*c < 0x80 && g_ascii_isalnum ((char) *c))
    return refuse (t, g_ascii_isdigit ((char) *c) ? _("back-references (\\1…) are not supported")
                                                  : _("this escape is read differently outside JavaScript; escape only punctuation, or use \\d \\w \\s \\b \\t \\n \\r \\f \\v \\xHH \\uHHHH"));
  return TRUE;
}

static const char *
class_escape (char c)
{
  switch (c)
    {
    case 'd': return JS_DIGIT;
    case 'w': return JS_WORD;
    case 's': return JS_SPACE;
    default: return NULL;
    }
}

/* \D, \W and \S: what a class escape leaves out, or NULL. */
static const char *
negated_class_escape (char c)
{
  switch (c)
    {
    case 'D': return JS_DIGIT;
    case 'W': return JS_WORD;
    case 'S': return JS_SPACE;
    default: return NULL;
    }
}

/* A range of UTF-16 units: the surrogates among them as the halves they
 * stand for, the characters around them as themselves. */
static void
put_range (GString *out, gunichar lo, gunichar hi)
{
  const gunichar parts[3][2] = {
    { lo, MIN (hi, 0xD7FF) }, { MAX (lo, 0xD800), MIN (hi, 0xDFFF) }, { MAX (lo, 0xE000), hi },
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      if (parts[i][0] > parts[i][1])
        continue;
      put_char (out, parts[i][0]);
      if (parts[i][1] > parts[i][0])
        {
          g_string_append_c (out, '-');
          put_char (out, parts[i][1]);
        }
    }
}

static gboolean
no_range_from_class (Translation *t)
{
  return t->p[0] != '-' || t->p[1] == ']' || refuse (t, _("a range cannot start at a class such as \\d"));
}

/* One member of a class: a class escape, a character or a range. The
 * negated class escapes (\D, \W, \S), which PCRE cannot nest in a
 * class, go to @negated as alternatives of their own. */
static gboolean
translate_class_item (Translation *t, GString *negated)
{
  gunichar lo, hi;

  if (t->p[0] == '\\' && class_escape (t->p[1]) != NULL)
    {
      g_string_append (t->out, class_escape (t->p[1]));
      t->p += 2;
      return no_range_from_class (t);
    }
  if (t->p[0] == '\\' && negated_class_escape (t->p[1]) != NULL)
    {
      g_string_append_printf (negated, "|[^%s]", negated_class_escape (t->p[1]));
      t->p += 2;
      return no_range_from_class (t);
    }
  if (t->p[0] == '[')
    return refuse (t, _("write \\[ for a [ inside [ ]"));
  if (!read_char (t, &lo))
    return FALSE;
  if (is_astral (lo))
    return refuse (t, _("characters past U+FFFF inside [ ] are read differently outside JavaScript"));
  hi = lo;
  if (t->p[0] == '-' && t->p[1] != ']' && t->p[1] != '\0')
    {
      t->p++;
      if (t->p[0] == '\\' && (class_escape (t->p[1]) != NULL || negated_class_escape (t->p[1]) != NULL))
        return refuse (t, _("a range cannot end at a class such as \\d"));
      if (!read_char (t, &hi))
        return FALSE;
      if (is_astral (hi))
        return refuse (t, _("characters past U+FFFF inside [ ] are read differently outside JavaScript"));
      if (hi < lo)
        return refuse (t, _("a range inside [ ] is out of order"));
    }
  put_range (t->out, lo, hi);
  return TRUE;
}

/* [items] as PCRE reads it; with \D, \W or \S among them, an alternation
 * of the rest and each of those, and a negated class as any one unit
 * (a character, or a half past U+FFFF) that is none of them. */
static void
put_class (GString *out, gboolean negate, const GString *items, const GString *negated)
{
  if (negated->len == 0)
    {
      g_string_append_printf (out, "[%s%s]", negate ? "^" : "", items->str);
      return;
    }
  g_string_append (out, negate ? "(?:(?!" : "(?:");
  if (items->len > 0)
    g_string_append_printf (out, "[%s]%s", items->str, negated->str);
  else
    g_string_append (out, negated->str + 1);
  g_string_append (out, negate ? ")[\\x{0}-\\x{10FFFF}])" : ")");
}

static gboolean
translate_class (Translation *t)
{
  g_autoptr(GString) items = g_string_new (NULL);
  g_autoptr(GString) negated = g_string_new (NULL);
  GString *out = t->out;
  gboolean negate = *t->p == '^';
  gboolean done = TRUE;

  if (negate)
    t->p++;
  if (*t->p == ']')
    return refuse (t, _("[] and [^] are read differently outside JavaScript"));
  t->out = items;
  while (done && *t->p != ']')
    done = *t->p != '\0' ? translate_class_item (t, negated) : refuse (t, _("a [ is not closed"));
  t->out = out;
  if (!done)
    return FALSE;
  t->p++;
  put_class (t->out, negate, items, negated);
  t->can_repeat = TRUE;
  return TRUE;
}

/* {n}, {n,} or {n,m}; anything else after { is refused (JavaScript
 * would read it as text). */
static gboolean
translate_braces (Translation *t)
{
  const char *q = t->p + 1;
  const char *start = t->p;

  if (!g_ascii_isdigit (*q))
    return refuse (t, _("write \\{ for a literal {"));
  while (g_ascii_isdigit (*q))
    q++;
  if (*q == ',')
    q++;
  while (g_ascii_isdigit (*q))
    q++;
  if (*q != '}')
    return refuse (t, _("write \\{ for a literal {"));
  t->p = q + 1;
  g_string_append_len (t->out, start, t->p - start);
  return TRUE;
}

static gboolean
translate_quantifier (Translation *t)
{
  if (!t->can_repeat)
    return refuse (t, _("a quantifier (*, +, ?, {n}) follows nothing it can repeat"));
  if (*t->p == '{')
    {
      if (!translate_braces (t))
        return FALSE;
    }
  else
    g_string_append_c (t->out, *t->p++);
  if (*t->p == '?')
    g_string_append_c (t->out, *t->p++);
  t->can_repeat = FALSE;
  return TRUE;
}

static gboolean
translate_group_open (Translation *t)
{
  char kind = 'c';

  t->p++;
  if (*t->p == '?')
    {
      if (t->p[1] != ':' && t->p[1] != '=' && t->p[1] != '!')
        return refuse (t, _("only (?:…), (?=…) and (?!…) groups are supported"));
      kind = t->p[1] == ':' ? 'c' : 'l';
      g_string_append_len (t->out, t->p - 1, 3);
      t->p += 2;
    }
  else
    g_string_append_c (t->out, '(');
  g_string_append_c (t->kinds, kind);
  t->can_repeat = FALSE;
  return TRUE;
}

static gboolean
translate_group_close (Translation *t)
{
  if (t->kinds->len == 0)
    return refuse (t, _("a ) has no ( before it"));
  t->can_repeat = t->kinds->str[t->kinds->len - 1] == 'c';
  g_string_truncate (t->kinds, t->kinds->len - 1);
  g_string_append_c (t->out, ')');
  t->p++;
  return TRUE;
}

/* An escape outside [ ]: a class, a boundary or one character. */
static gboolean
translate_escape (Translation *t)
{
  static const struct { char c; const char *pcre; } classes[] = {
    { 'd', "[" JS_DIGIT "]" }, { 'D', "[^" JS_DIGIT "]" },
    { 'w', "[" JS_WORD "]" },  { 'W', "[^" JS_WORD "]" },
    { 's', "[" JS_SPACE "]" }, { 'S', "[^" JS_SPACE "]" },
    { 'b', "(?:" JS_WORD_AT JS_NO_WORD_NEXT "|" JS_NO_WORD_AT JS_WORD_NEXT ")" },
    { 'B', "(?:" JS_WORD_AT JS_WORD_NEXT "|" JS_NO_WORD_AT JS_NO_WORD_NEXT ")" },
  };
  gunichar c;

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (t->p[1] == classes[i].c)
      {
        g_string_append (t->out, classes[i].pcre);
        t->p += 2;
        t->can_repeat = g_ascii_tolower (classes[i].c) != 'b';
        return TRUE;
      }
  if (!read_char (t, &c))
    return FALSE;
  put_char (t->out, c);
  t->can_repeat = TRUE;
  return TRUE;
}

static gboolean
translate_one (Translation *t)
{
  gunichar c;

  switch (*t->p)
    {
    case '\\': return translate_escape (t);
    case '[': t->p++; return translate_class (t);
    case '(': return translate_group_open (t);
    case ')': return translate_group_close (t);
    case '*': case '+': case '?': case '{': return translate_quantifier (t);
    case '}': return refuse (t, _("write \\} for a literal }"));
    case ']': return refuse (t, _("write \\] for a literal ]"));
    case '.':
      /* Any character but JavaScript's line terminators. */
      g_string_append (t->out, "[^\\n\\r\\x{2028}\\x{2029}]");
      break;
    case '^': g_string_append (t->out, "\\A"); t->p++; t->can_repeat = FALSE; return TRUE;
    case '$': g_string_append (t->out, "\\z"); t->p++; t->can_repeat = FALSE; return TRUE;
    case '|': g_string_append_c (t->out, '|'); t->p++; t->can_repeat = FALSE; return TRUE;
    default:
      read_char (t, &c);
      /* Past U+FFFF, a quantifier repeats the low half alone, as in
       * JavaScript. */
      put_char (t->out, c);
      t->can_repeat = TRUE;
      return TRUE;
    }
  t->p++;
  t->can_repeat = TRUE;
  return TRUE;
}

/* The PCRE pattern that matches what JavaScript's `new RegExp (body)`
 * matches, or NULL with the reason in @refusal. */
static char *
translate (const char *body, char **refusal)
{
  Translation t = { body, g_string_new (NULL), g_string_new (NULL), FALSE, NULL };

  while (*t.p != '\0' && translate_one (&t))
    ;
  if (t.refusal == NULL && t.kinds->len > 0)
    refuse (&t, _("a ( is not closed"));
  g_string_free (t.kinds, TRUE);
  *refusal = t.refusal;
  return g_string_free (t.out, t.refusal != NULL);
}

static gboolean
set_error (GError **error, AfgTransformError code, const char *arg, const char *why)
{
  g_set_error (error, AFG_TRANSFORM_ERROR, code, "'%s': %s", arg, why);
  return FALSE;
}

static gboolean
compile_regex (AfgFrameMatcher *self, const char *arg, GError **error)
{
  g_autofree char *body = g_strndup (arg + 1, strlen (arg) - 2);
  g_autofree char *refusal = NULL;
  g_autofree char *pattern = NULL;
  g_autoptr(GError) local = NULL;

  if (!g_utf8_validate (body, -1, NULL))
    return set_error (error, AFG_TRANSFORM_ERROR_REGEX, arg, _("the pattern is not UTF-8"));
  pattern = translate (body, &refusal);
  if (pattern == NULL)
    return set_error (error, AFG_TRANSFORM_ERROR_REGEX, arg, refusal);
  self->regex = g_regex_new (pattern, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, &local);
  if (self->regex == NULL)
    return set_error (error, AFG_TRANSFORM_ERROR_REGEX, arg, local->message);
  return TRUE;
}

AfgFrameMatcher *
afg_frame_matcher_new (const char *arg, GError **error)
{
  g_autoptr(AfgFrameMatcher) self = g_new0 (AfgFrameMatcher, 1);
  gsize len;

  g_return_val_if_fail (arg != NULL, NULL);

  len = strlen (arg);
  if (arg[0] != '/')
    self->name = g_strdup (arg);
  else if (arg[1] == '/')
    self->name = g_strdup (arg + 1);
  else if (len < 3 || arg[len - 1] != '/')
    {
      set_error (error, AFG_TRANSFORM_ERROR_NAME, arg,
                 _("a regular expression is written /REGEX/, a name that starts with / as //NAME"));
      return NULL;
    }
  else if (!compile_regex (self, arg, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
afg_frame_matcher_free (AfgFrameMatcher *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_clear_pointer (&self->regex, g_regex_unref);
  g_free (self);
}

/* @name with each character past U+FFFF spelt as its two halves, or
 * NULL when it has none (the usual case: no copy). */
static char *
spell_halves (const char *name)
{
  GString *out;

  if (strpbrk (name, "\xF0\xF1\xF2\xF3\xF4") == NULL || !g_utf8_validate (name, -1, NULL))
    return NULL;
  out = g_string_new (NULL);
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (is_astral (c))
        put_halves (out, c, FALSE);
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

gboolean
afg_frame_matcher_matches (const AfgFrameMatcher *self, const char *name)
{
  g_autofree char *spelt = NULL;

  if (self->name != NULL)
    return strcmp (self->name, name) == 0;
  spelt = spell_halves (name);
  return g_regex_match (self->regex, spelt != NULL ? spelt : name, G_REGEX_MATCH_DEFAULT, NULL);
}

char *
afg_frame_matcher_quote_name (const char *name)
{
  return name[0] == '/' ? g_strconcat ("/", name, NULL) : g_strdup (name);
}
