/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-window-private.h"

/* The window's side of the weight (the menu itself is AfgWeightMenu):
 * the flame view, the thread picker and the status line follow the
 * weight chosen, and a tree about to be shown gets it where it can. */

static gboolean
on_graph (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "graph") == 0;
}

/* Keeps the thread picked (and so the zoom) while its totals change. */
static void
refill_threads_in_place (AfgWindow *self)
{
  guint picked = gtk_drop_down_get_selected (self->thread_dropdown);

  g_signal_handlers_block_matched (self->thread_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  _afg_window_fill_threads (self);
  gtk_drop_down_set_selected (self->thread_dropdown, picked);
  g_signal_handlers_unblock_matched (self->thread_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
}

static void
apply (AfgWindow *self)
{
  if (on_graph (self) && afg_session_get_column (self->session) != afg_flame_view_get_weight (self->flame_view))
    {
      afg_flame_view_set_weight (self->flame_view, afg_session_get_column (self->session));
      refill_threads_in_place (self);
      _afg_window_update_status (self);
      /* The status line's selected frame: its share is of the weight. */
      g_object_notify (G_OBJECT (self->flame_view), "selected-node");
    }
  _afg_window_update_actions (self);
}

/* A tree or a comparison shown brings its own column along
 * (_afg_window_weight_prepare); a choice applies to the tree on screen. */
static void
on_weight_chosen (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  apply (self);
}

/* The tree about to be shown (@tree) gets the chosen weight where it can;
 * @layout, made in host time by the loader, is dropped (NULL returned)
 * when it does not fit, and the view builds one. */
AfgFlameLayout *
_afg_window_weight_prepare (AfgWindow *self, AfgTree *tree, AfgFlameLayout *layout)
{
  AfgColumn column = afg_session_column_for (self->session, tree);

  afg_flame_view_set_weight (self->flame_view, column);
  if (layout != NULL && afg_flame_layout_get_weight (layout) != column)
    g_clear_pointer (&layout, afg_flame_layout_free);
  return layout;
}

/* The weight of the widths on screen: a diff's frames weigh what it was
 * made in, drawn as its trees' host columns. */
AfgWeight
_afg_window_weight_shown (AfgWindow *self)
{
  AfgDiffShape *shape = self->diff_view ? afg_diff_view_get_shape (self->diff_view) : NULL;
  AfgColumn column = _afg_window_is_comparing (self) && shape ? afg_diff_shape_get_weight (shape)
                                                             : afg_flame_view_get_weight (self->flame_view);
  AfgWeight weight = AFG_WEIGHT_HOST;

  afg_weight_from_total_column (column, &weight);
  return weight;
}

/* The status line's device time, the CLI summary's figures: linked to a
 * frame, and unlinked (no launching call), then by kind, which is what
 * the device weights show; NULL without NPU data. */
char *
_afg_window_weight_describe_npu (AfgWindow *self)
{
  AfgDocument *document = _afg_window_get_tree (self) ? afg_tree_get_document (_afg_window_get_tree (self)) : NULL;
  const AfgNpuStats *npu = document ? afg_document_get_npu_stats (document) : NULL;
  const AfgNpuKindStats *k = document ? afg_document_get_npu_kind_stats (document) : NULL;
  g_autofree char *linked = NULL;
  g_autofree char *unlinked = NULL;
  g_autofree char *text = NULL;

  if (npu == NULL)
    return NULL;
  linked = afg_format_duration (npu->ns - npu->unlinked_ns);
  unlinked = afg_format_duration (npu->unlinked_ns);
  text = g_strdup_printf (_("NPU %s linked (%'" PRIu64 " tasks), %s unlinked (%'" PRIu64 ")"),
                          linked, npu->tasks - npu->unlinked_tasks, unlinked, npu->unlinked_tasks);
  if (k != NULL)
    {
      g_autofree char *compute = afg_format_duration (k->compute_ns);
      g_autofree char *comm = afg_format_duration (k->comm_ns);
      g_autofree char *exposed = afg_format_duration (k->exposed_ns);
      g_autofree char *other = afg_format_duration (k->other_ns);
      g_autofree char *kinds = g_strdup_printf (_("compute %s, communication %s (%s exposed), other %s"),
                                                compute, comm, exposed, other);

      return g_strdup_printf ("%s · %s", text, kinds);
    }
  return g_steal_pointer (&text);
}

/* The state line's last fields: the kernel leaves of the layout shown
 * (empty in host time and all device tasks' time, which have none) and
 * the Kernels tab's first row while the Functions panel is shown. */
void
_afg_window_weight_append_state (AfgWindow *self, GString *line, gboolean graph)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);
  AfgWeight shown = AFG_WEIGHT_HOST;
  g_autofree char *leaves = NULL;
  g_autofree char *top = NULL;
  guint n = 0;

  shown = _afg_window_weight_shown (self);
  if (graph && layout != NULL && afg_weight_has_kernels (shown))
    {
      afg_flame_layout_get_leaves (layout, &n);
      leaves = g_strdup_printf ("%u", n);
    }
  if (graph && gtk_widget_get_visible (GTK_WIDGET (afg_functions_pane_get_panel (self->functions_pane))))
    top = afg_kernel_list_get_top (afg_function_panel_get_kernels (afg_functions_pane_get_panel (self->functions_pane)));
  _afg_window_append_state_field (line, "kernels", leaves);
  _afg_window_append_state_field (line, "kernel_top", top);
}

void
_afg_window_weight_init (AfgWindow *self)
{
  afg_weight_menu_set_session (self->weight_menu, self->session);
  afg_weight_menu_add_actions (self->weight_menu, G_ACTION_MAP (self));
  g_signal_connect_object (self->session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
}
