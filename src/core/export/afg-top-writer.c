/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "afg-format.h"
#include "afg-function-table.h"
#include "afg-kernel-rows.h"
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

/* A function's sums in the weight, as the function table sums host time. */
typedef struct {
  const AfgFunctionTable *table;
  gint64                 *self;
  gint64                 *total;
} WeightSums;

static void
sum_weight (WeightSums *w, AfgWeight weight)
{
  afg_function_table_sum_columns (w->table, afg_weight_get_self_column (weight), afg_weight_get_total_column (weight),
                                  &w->self, &w->total);
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
  WeightSums w = { table };
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

void
afg_top_write_kernels (const AfgTree *tree, guint n, AfgWeight weight, GString *out)
{
  g_autoptr(GArray) rows = afg_kernel_rows_new (tree, weight);
  AfgDocument *document = afg_tree_get_document (tree);
  gint64 all = afg_tree_has_column (tree, afg_weight_get_total_column (weight))
                 ? afg_tree_get_value (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT) : 0;

  append_right (out, _("count"), 12);
  append_right (out, weight_label (weight, FALSE), 11);
  append_right (out, _("share"), 8);
  g_string_append (out, _("kernel"));
  g_string_append_c (out, '\n');
  for (guint k = 0; k < MIN (n, rows->len); k++)
    {
      const AfgKernelRow *row = &g_array_index (rows, AfgKernelRow, k);
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
