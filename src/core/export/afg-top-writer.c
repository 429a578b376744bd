/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-function-table.h"
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

static void
append_row (GString *out, const AfgFunctionTable *table, guint k, gboolean npu, gint64 all)
{
  const AfgFunction *f = afg_function_table_get (table, k);
  gint64 self_ns = npu ? f->npu_self_ns : f->self_ns;
  g_autofree char *calls = g_strdup_printf ("%" G_GINT64_FORMAT, f->calls);
  g_autofree char *self_text = afg_format_duration (self_ns);
  g_autofree char *total = afg_format_duration (npu ? f->npu_total_ns : f->total_ns);
  g_autofree char *percent = afg_format_percent (self_ns, all);
  /* A name is DB text: no control character reaches the terminal. */
  g_autofree char *name = afg_format_path (afg_function_table_get_name (table, k));

  append_right (out, calls, 12);
  append_right (out, self_text, 11);
  append_right (out, total, 11);
  append_right (out, percent, 7);
  g_string_append (out, name);
  g_string_append_c (out, '\n');
}

void
afg_top_write (const AfgTree *tree, guint n, AfgWeight weight, GString *out)
{
  g_autoptr(AfgFunctionTable) table = afg_function_table_new ((AfgTree *) tree);
  guint rows = MIN (n, afg_function_table_get_n_functions (table));
  gboolean npu = weight == AFG_WEIGHT_NPU;
  gint64 all = afg_function_table_get_all (table, npu ? AFG_COLUMN_NPU_TOTAL_NS : AFG_COLUMN_TOTAL_NS);
  /* Self time descending, ties by name: the JSON's order in either weight. */
  g_autofree guint *order = afg_function_table_sort (table, npu ? AFG_FUNCTION_SORT_NPU_SELF : AFG_FUNCTION_SORT_SELF,
                                                     TRUE);

  append_right (out, _("calls"), 12);
  append_right (out, npu ? _("NPU self") : _("self"), 11);
  append_right (out, npu ? _("NPU total") : _("total"), 11);
  append_right (out, _("self %"), 7);
  g_string_append (out, _("function"));
  g_string_append_c (out, '\n');
  for (guint k = 0; k < rows; k++)
    append_row (out, table, order[k], npu, all);
}
