/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "afg-format.h"
#include "afg-math.h"
#include "afg-function-table.h"
#include "afg-task-kinds.h"
#include "afg-writers.h"

/* Right-aligned to @width characters (not bytes: "µs" is one wider in
 * UTF-8 than on screen). */
static void
append_right (GString *out, const char *text, guint width)
{
  glong len = g_utf8_strlen (text, -1);

  for (glong i = len; i < (glong) width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
  g_string_append (out, "  ");
}

/* A function's sums in the weight: self over its frames, total over its
 * outermost ones (recursion once), as the function table sums host time. */
typedef struct {
  const AfgFunctionTable *table;
  const AfgTree          *tree;
  AfgColumn               total_column;
  gint64                 *self;
  gint64                 *total;
  const guint32          *keys;
} WeightSums;

static void
add_outermost (guint32 node, gpointer data)
{
  WeightSums *w = data;

  w->total[w->keys[node]] = afg_sat_add (w->total[w->keys[node]], afg_tree_get_value (w->tree, w->total_column, node));
}

static void
sum_weight (WeightSums *w, AfgWeight weight)
{
  guint n = afg_function_table_get_n_functions (w->table);
  guint n_nodes = afg_tree_get_n_nodes (w->tree);
  g_autofree guint32 *keys = g_new (guint32, MAX (n_nodes, 1));
  AfgColumn self_column = afg_weight_get_self_column (weight);

  w->self = g_new0 (gint64, MAX (n, 1));
  w->total = g_new0 (gint64, n + 1);
  w->total_column = afg_weight_get_total_column (weight);
  for (guint32 i = 0; i < n_nodes; i++)
    {
      guint f = afg_function_table_find_node (w->table, i);

      keys[i] = f == AFG_FUNCTION_NONE ? n : f;
      if (f != AFG_FUNCTION_NONE)
        w->self[f] = afg_sat_add (w->self[f], afg_tree_get_value (w->tree, self_column, i));
    }
  w->keys = keys;
  afg_function_table_for_each_outermost (w->tree, keys, n + 1, add_outermost, w);
  w->keys = NULL;
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WeightSums *w = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (w->self[x] != w->self[y])
    return w->self[x] > w->self[y] ? -1 : 1;
  return strcmp (afg_function_table_get_name (w->table, x), afg_function_table_get_name (w->table, y));
}

static void
append_row (GString *out, const WeightSums *w, guint k, gint64 all)
{
  const AfgFunction *f = afg_function_table_get (w->table, k);
  g_autofree char *calls = g_strdup_printf ("%" G_GINT64_FORMAT, f->calls);
  g_autofree char *self_text = afg_format_duration (w->self[k]);
  g_autofree char *total = afg_format_duration (w->total[k]);
  g_autofree char *percent = afg_format_percent (w->self[k], all);
  /* A name is DB text: no control character reaches the terminal. */
  g_autofree char *name = afg_format_path (afg_function_table_get_name (w->table, k));

  append_right (out, calls, 12);
  append_right (out, self_text, 11);
  append_right (out, total, 11);
  append_right (out, percent, 7);
  g_string_append (out, name);
  g_string_append_c (out, '\n');
}

static const char *
weight_label (AfgWeight weight, gboolean total)
{
  switch (weight)
    {
    case AFG_WEIGHT_NPU: return total ? _("NPU total") : _("NPU self");
    case AFG_WEIGHT_COMPUTE: return total ? _("comp. total") : _("compute");
    case AFG_WEIGHT_COMM: return total ? _("comm total") : _("comm");
    case AFG_WEIGHT_EXPOSED: return total ? _("exp. total") : _("exposed");
    case AFG_WEIGHT_HOST:
    default: return total ? _("total") : _("self");
    }
}

/* Self time in the weight descending, ties by name: the JSON's order. */
void
afg_top_write (const AfgTree *tree, guint n, AfgWeight weight, GString *out)
{
  g_autoptr(AfgFunctionTable) table = afg_function_table_new ((AfgTree *) tree);
  guint n_functions = afg_function_table_get_n_functions (table), rows = MIN (n, n_functions);
  WeightSums w = { table, tree };
  gint64 all = afg_tree_has_column (tree, afg_weight_get_total_column (weight))
                 ? afg_tree_get_value (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT) : 0;
  g_autofree guint *order = g_new (guint, MAX (n_functions, 1));

  sum_weight (&w, weight);
  for (guint k = 0; k < n_functions; k++)
    order[k] = k;
  g_qsort_with_data (order, (gint) n_functions, sizeof (guint), compare_rows, &w);
  append_right (out, _("calls"), 12);
  append_right (out, weight_label (weight, FALSE), 11);
  append_right (out, weight_label (weight, TRUE), 11);
  append_right (out, _("self %"), 7);
  g_string_append (out, _("function"));
  g_string_append_c (out, '\n');
  for (guint k = 0; k < rows; k++)
    append_row (out, &w, order[k], all);
  g_free (w.self);
  g_free (w.total);
}

typedef struct {
  guint32 name;
  guint32 kind;
  guint64 count;
  gint64  value;
} KernelRow;

static int
compare_kernel_rows (gconstpointer a, gconstpointer b, gpointer tree)
{
  const KernelRow *x = a, *y = b;
  AfgDocument *document = afg_tree_get_document (tree);

  if (x->value != y->value)
    return x->value > y->value ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return strcmp (afg_document_get_string (document, x->name), afg_document_get_string (document, y->name));
}

/* One row per kind and name over every frame's leaves. */
static GArray *
sum_kernels (const AfgTree *tree, AfgWeight weight)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (KernelRow));
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);

      for (guint j = 0; j < n; j++)
        {
          gint64 key = (gint64) k[j].kind << 32 | k[j].name, value = afg_weight_kernel_value (weight, &k[j]);
          gpointer at;
          KernelRow *row;

          if (value <= 0)
            continue;
          if (!g_hash_table_lookup_extended (index, &key, NULL, &at))
            {
              KernelRow fresh = { k[j].name, k[j].kind, 0, 0 };

              g_array_append_val (rows, fresh);
              at = GUINT_TO_POINTER (rows->len);
              g_hash_table_insert (index, g_memdup2 (&key, sizeof key), at);
            }
          row = &g_array_index (rows, KernelRow, GPOINTER_TO_UINT (at) - 1);
          row->count += k[j].count;
          row->value = afg_sat_add (row->value, value);
        }
    }
  return rows;
}

void
afg_top_write_kernels (const AfgTree *tree, guint n, AfgWeight weight, GString *out)
{
  g_autoptr(GArray) rows = sum_kernels (tree, weight);
  AfgDocument *document = afg_tree_get_document (tree);
  gint64 all = afg_tree_has_column (tree, afg_weight_get_total_column (weight))
                 ? afg_tree_get_value (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT) : 0;

  g_array_sort_with_data (rows, compare_kernel_rows, (gpointer) tree);
  append_right (out, _("count"), 12);
  append_right (out, weight_label (weight, FALSE), 11);
  append_right (out, _("% of all"), 8);
  g_string_append (out, _("kernel"));
  g_string_append_c (out, '\n');
  for (guint k = 0; k < MIN (n, rows->len); k++)
    {
      const KernelRow *row = &g_array_index (rows, KernelRow, k);
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, row->count);
      g_autofree char *value = afg_format_duration (row->value);
      g_autofree char *percent = afg_format_percent (row->value, all);
      g_autofree char *name = afg_format_path (afg_document_get_string (document, row->name));

      append_right (out, count, 12);
      append_right (out, value, 11);
      append_right (out, percent, 8);
      g_string_append_printf (out, "[%s] %s\n", afg_task_kind_to_string (row->kind), name);
    }
}
