/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-frame-tooltip.h"

static void
row_free (gpointer data)
{
  AfgTooltipRow *row = data;

  g_free (row->label);
  g_free (row->value);
  g_free (row);
}

/* Takes @value. */
static void
add (GPtrArray *rows, const char *label, char *value)
{
  AfgTooltipRow *row = g_new (AfgTooltipRow, 1);

  row->label = g_strdup (label);
  row->value = value;
  g_ptr_array_add (rows, row);
}

static char *
time_of (const AfgTree *tree, AfgColumn column, guint32 node, guint divisor)
{
  return afg_format_duration (afg_tree_get_value (tree, column, node) / divisor);
}

/* Both weights, whichever the widths follow: the device time of a frame
 * means little without its host time and the other way round. */
static void
add_npu (GPtrArray *rows, const AfgTree *tree, guint32 node, guint divisor)
{
  gboolean per = divisor > 1;

  if (!afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS))
    return;
  add (rows, per ? _("NPU total / step") : _("NPU total"), time_of (tree, AFG_COLUMN_NPU_TOTAL_NS, node, divisor));
  add (rows, per ? _("NPU self / step") : _("NPU self"), time_of (tree, AFG_COLUMN_NPU_SELF_NS, node, divisor));
  add (rows, per ? _("NPU tasks / step") : _("NPU tasks"),
       afg_format_count ((double) afg_tree_get_value (tree, AFG_COLUMN_NPU_TASKS, node) / divisor));
}

/* "LABEL" or "LABEL / step". */
static char *
per_step_label (const char *label, gboolean per)
{
  return per ? g_strdup_printf (_("%s / step"), label) : g_strdup (label);
}

static void
add_kind_row (GPtrArray *rows, const char *label, gboolean per, char *value)
{
  g_autofree char *text = per_step_label (label, per);

  add (rows, text, value);
}

/* Every device weight by kind, whichever the widths follow, as the
 * page's tooltip lists them; the self parts and counts are a frame's own
 * (none for the root and the threads). */
static void
add_kinds (GPtrArray *rows, const AfgTree *tree, guint32 node, guint divisor)
{
  gboolean per = divisor > 1, frame = afg_tree_is_frame (tree, node);

  if (!afg_tree_has_column (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS))
    return;
  add_kind_row (rows, _("Compute total"), per, time_of (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, node, divisor));
  add_kind_row (rows, _("Compute self"), per,
                frame ? time_of (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, node, divisor) : afg_format_duration (0));
  add_kind_row (rows, _("Compute tasks"), per, afg_format_count (
    frame ? (double) afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_TASKS, node) / divisor : 0));
  add_kind_row (rows, _("Communication total"), per, time_of (tree, AFG_COLUMN_COMM_TOTAL_NS, node, divisor));
  add_kind_row (rows, _("Communication self"), per,
                frame ? time_of (tree, AFG_COLUMN_COMM_SELF_NS, node, divisor) : afg_format_duration (0));
  add_kind_row (rows, _("Collectives"), per, afg_format_count (
    frame ? (double) afg_tree_get_value (tree, AFG_COLUMN_COMM_OPS, node) / divisor : 0));
  add_kind_row (rows, _("Exposed total"), per, time_of (tree, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS, node, divisor));
  add_kind_row (rows, _("Exposed self"), per,
                frame ? time_of (tree, AFG_COLUMN_COMM_EXPOSED_SELF_NS, node, divisor) : afg_format_duration (0));
}

/* Per step does not divide them: each is one call's time. */
static void
add_durations (GPtrArray *rows, const AfgTree *tree, guint32 node)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (!afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN) || afg_tree_get_value (tree, AFG_COLUMN_CALLS, node) == 0
      || afg_tree_get_node (tree, node)->depth < 2)
    return;
  for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
    {
      g_autofree char *value = afg_format_duration (afg_tree_get_value (tree, AFG_COLUMN_DURATION_MIN + k, node));

      g_string_append_printf (text, "%s%s", k > 0 ? " / " : "", value);
    }
  add (rows, _("Call durations"), g_string_free (g_steal_pointer (&text), FALSE));
}

GPtrArray *
afg_frame_tooltip_rows (const AfgTree *tree, guint32 node, AfgColumn weight, guint divisor, guint32 zoom_root)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  gint64 value = afg_tree_get_value (tree, weight, node);
  gint64 calls = node == AFG_TREE_ROOT ? 0 : afg_tree_get_value (tree, AFG_COLUMN_CALLS, node);
  gboolean per = divisor > 1;

  g_return_val_if_fail (divisor >= 1, rows);
  add (rows, _("Category"), g_strdup (afg_tree_is_frame (tree, node)
                                      ? afg_category_to_label (afg_tree_get_node_category (tree, node)) : "—"));
  add (rows, per ? _("Calls / step") : _("Calls"), afg_format_count ((double) calls / divisor));
  /* Total and Self are host time whatever the weight: the shares are of
   * the weight, and NPU time has its own lines. */
  add (rows, per ? _("Total / step") : _("Total"), time_of (tree, AFG_COLUMN_TOTAL_NS, node, divisor));
  add (rows, per ? _("Self / step") : _("Self"), time_of (tree, AFG_COLUMN_SELF_NS, node, divisor));
  add_npu (rows, tree, node, divisor);
  add_kinds (rows, tree, node, divisor);
  add (rows, _("Of all"), afg_format_percent (value, afg_tree_get_value (tree, weight, AFG_TREE_ROOT)));
  add (rows, _("Of zoom"), afg_format_percent (value, afg_tree_get_value (tree, weight, zoom_root)));
  add_durations (rows, tree, node);
  return rows;
}
