/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-json-node-writer.h"
#include "afg-json-writer.h"

#define MAX_INT_TEXT 20  /* -9223372036854775808 */

void
afg_json_node_writer_init (AfgJsonNodeWriter *w, const AfgTree *tree)
{
  GString *keys = g_string_new (NULL);
  gsize at[AFG_N_COLUMNS];

  memset (w, 0, sizeof *w);
  w->tree = tree;
  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    {
      const AfgColumnInfo *info = afg_column_get_info (c);

      if (!afg_tree_has_column (tree, c) || (info->flags & AFG_COLUMN_FLAG_DURATION))
        continue;
      at[w->n_fields] = keys->len;
      w->fields[w->n_fields].values = afg_tree_get_column (tree, c);
      w->fields[w->n_fields].key_len = strlen (info->key) + 4;
      g_string_append_printf (keys, ",\"%s\":", info->key);
      w->n_fields++;
    }
  w->keys = g_string_free (keys, FALSE);
  for (guint f = 0; f < w->n_fields; f++)
    w->fields[f].key = w->keys + at[f];
  if (afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN))
    for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
      w->durations[k] = afg_tree_get_column (tree, AFG_COLUMN_DURATION_MIN + k);
  for (AfgCategory c = 0; c < AFG_N_CATEGORIES; c++)
    {
      w->categories[c] = afg_category_to_string (c);
      w->category_lens[c] = strlen (w->categories[c]);
    }
}

void
afg_json_node_writer_clear (AfgJsonNodeWriter *w)
{
  g_free (w->keys);
}

static inline char *
put (char *p, const char *text, gsize len)
{
  memcpy (p, text, len);
  return p + len;
}

#define PUT_LITERAL(p, text) put ((p), (text), sizeof (text) - 1)

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Two digits a step: half the chain of dependent multiplications. */
static inline char *
put_int (char *p, gint64 value)
{
  char buf[MAX_INT_TEXT];
  char *q = buf + sizeof buf;
  guint64 v = value < 0 ? 0 - (guint64) value : (guint64) value;

  while (v >= 100)
    {
      guint64 pair = v % 100;

      v /= 100;
      q -= 2;
      memcpy (q, digit_pairs + 2 * pair, 2);
    }
  if (v >= 10)
    {
      q -= 2;
      memcpy (q, digit_pairs + 2 * v, 2);
    }
  else
    *--q = (char) ('0' + v);
  if (value < 0)
    *--q = '-';
  return put (p, q, buf + sizeof buf - q);
}

/* Room for @n more bytes at the end of @out, returned; the caller ends
 * the text with end_room(). */
static inline char *
room (GString *out, gsize n)
{
  gsize len = out->len;

  if (len + n >= out->allocated_len)
    {
      g_string_set_size (out, len + n);
      out->len = len;
    }
  return out->str + len;
}

static inline void
end_room (GString *out, char *end)
{
  *end = '\0';
  out->len = end - out->str;
}

void
afg_json_node_writer_open (GString *out, guint32 i, gpointer data)
{
  const AfgJsonNodeWriter *w = data;
  const char *name = afg_tree_get_node_name (w->tree, i);
  AfgCategory category = afg_tree_get_node_category (w->tree, i);
  gsize fixed = 64 + w->n_fields * (32 + MAX_INT_TEXT) + AFG_N_DURATION_COLUMNS * (MAX_INT_TEXT + 1);
  const guchar *c;
  char *p;

  for (c = (const guchar *) name; *c && !afg_json_needs_escape (*c); c++)
    ;
  if (*c)
    {
      /* Rare: the general path escapes it. */
      g_string_append (out, "{\"name\":");
      afg_json_append_string (out, name);
      p = room (out, fixed);
    }
  else
    {
      p = room (out, fixed + (c - (const guchar *) name));
      p = PUT_LITERAL (p, "{\"name\":\"");
      p = put (p, name, c - (const guchar *) name);
      *p++ = '"';
    }
  p = PUT_LITERAL (p, ",\"category\":\"");
  p = put (p, w->categories[category], w->category_lens[category]);
  *p++ = '"';
  for (guint f = 0; f < w->n_fields; f++)
    {
      p = put (p, w->fields[f].key, w->fields[f].key_len);
      p = put_int (p, w->fields[f].values[i]);
    }
  if (w->durations[0] != NULL)
    {
      p = PUT_LITERAL (p, ",\"durations\":[");
      for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
        {
          if (k > 0)
            *p++ = ',';
          p = put_int (p, w->durations[k][i]);
        }
      *p++ = ']';
    }
  p = PUT_LITERAL (p, ",\"children\":[");
  end_room (out, p);
}
