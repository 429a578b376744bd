/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include "afg-window-private.h"

/* The window's side of the weight (the menu itself is AfgWeightMenu):
 * the flame view, the thread picker and the status line follow the
 * weight chosen. */

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

void
_afg_window_weight_init (AfgWindow *self)
{
  afg_weight_menu_set_session (self->weight_menu, self->session);
  afg_weight_menu_add_actions (self->weight_menu, G_ACTION_MAP (self));
  g_signal_connect_object (self->session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
}
