/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-json-node-writer.h"
#include "afg-json-put.h"
#include "afg-json-writer.h"
#include "afg-task-kinds.h"

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
  w->kernels = afg_tree_has_column (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS);
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

static void
append_kernel (GString *out, const AfgTree *tree, const AfgNpuKernel *k, gboolean first)
{
  const char *kind = afg_task_kind_to_string (k->kind);
  char *p;

  g_string_append (out, first ? "{\"name\":" : ",{\"name\":");
  afg_json_append_string (out, afg_document_get_string (afg_tree_get_document (tree), k->name));
  p = room (out, 64 + strlen (kind) + 3 * MAX_INT_TEXT);
  p = PUT_LITERAL (p, ",\"kind\":\"");
  p = put (p, kind, strlen (kind));
  p = PUT_LITERAL (p, "\",\"count\":");
  p = put_int (p, (gint64) MIN (k->count, (guint64) G_MAXINT64));
  p = PUT_LITERAL (p, ",\"ns\":");
  p = put_int (p, k->ns);
  p = PUT_LITERAL (p, ",\"exposed_ns\":");
  p = put_int (p, k->exposed_ns);
  *p++ = '}';
  end_room (out, p);
}

/* With NPU data every node has "kernels", [] when it launched none. */
static void
append_kernels (GString *out, const AfgTree *tree, guint32 i)
{
  guint n;
  const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);

  g_string_append (out, ",\"kernels\":[");
  for (guint j = 0; j < n; j++)
    append_kernel (out, tree, &k[j], j == 0);
  g_string_append (out, "],\"children\":[");
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
  if (w->kernels)
    {
      end_room (out, p);
      append_kernels (out, w->tree, i);
      return;
    }
  p = PUT_LITERAL (p, ",\"children\":[");
  end_room (out, p);
}
