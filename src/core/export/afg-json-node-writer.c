/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-json-node-writer.h"
#include "afg-json-put.h"
#include "afg-json-writer.h"

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

void
afg_json_node_writer_open (GString *out, guint32 i, gpointer data)
{
  const AfgJsonNodeWriter *w = data;
  const char *name = afg_tree_get_node_name (w->tree, i);
  AfgCategory category = afg_tree_get_node_category (w->tree, i);
  gsize fixed = 64 + w->n_fields * (32 + MAX_INT_TEXT) + AFG_N_DURATION_COLUMNS * (MAX_INT_TEXT + 1);
  gssize name_len = plain_length (name);
  char *p;

  if (name_len < 0)
    {
      /* Rare: the general path escapes it. */
      g_string_append (out, "{\"name\":");
      afg_json_append_string (out, name);
      p = room (out, fixed);
    }
  else
    {
      p = room (out, fixed + (gsize) name_len);
      p = PUT_LITERAL (p, "{\"name\":\"");
      p = put (p, name, (gsize) name_len);
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
