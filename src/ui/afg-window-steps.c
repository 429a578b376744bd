/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-document-timeline.h"
#include "afg-window-private.h"

/* The window's side of the steps bar (AfgStepsBar): a scope picked on
 * the strip is built by the bar, or taken by the step comparison, and
 * shown here with the thread, the flame view's weight and the search
 * carried over; "Per step" divides the values the window shows. */

static AfgDocument *
window_document (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL ? afg_tree_get_document (_afg_window_get_tree (self)) : NULL;
}

static gint64
selected_thread (AfgWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->thread_dropdown);

  if (_afg_window_get_tree (self) == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return -1;
  return afg_tree_get_thread (_afg_window_get_tree (self), selected - 1)->global_tid;
}

/* Refills the thread picker (its totals follow the scope and "Per step")
 * and picks @global_tid again if the tree still has it. */
static void
refill_threads (AfgWindow *self, gint64 global_tid)
{
  _afg_window_fill_threads (self);
  for (guint i = 0; global_tid >= 0 && i < afg_tree_get_n_threads (_afg_window_get_tree (self)); i++)
    if (afg_tree_get_thread (_afg_window_get_tree (self), i)->global_tid == global_tid)
      gtk_drop_down_set_selected (self->thread_dropdown, i + 1);
}

static void
update_title (AfgWindow *self)
{
  g_autofree char *name = _afg_window_title_name (self, afg_document_get_source_name (window_document (self)));
  g_autofree char *words = afg_steps_bar_scope_words (afg_tree_get_scope (_afg_window_get_tree (self)));
  /* The scope first: the title ellipsizes at its start, keeping the file
   * name's end (the rank), which tells windows apart. */
  g_autofree char *title = words ? g_strdup_printf ("%s — %s", words, name) : NULL;

  gtk_window_set_title (GTK_WINDOW (self), title ? title : name);
}

/* Everything that "Per step" divides; @thread is picked again. */
static void
show_values (AfgWindow *self, gint64 thread)
{
  refill_threads (self, thread);
  afg_flame_view_set_divisor (self->flame_view, afg_steps_bar_get_divisor (self->steps_bar));
  afg_functions_pane_sync_divisor (self->functions_pane);
  afg_status_bar_refresh (self->status_bar);
}

static void
show_scoped_tree (AfgWindow *self, AfgTree *tree)
{
  gint64 thread = selected_thread (self);
  g_autofree char *search = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));

  afg_session_set_tree (self->session, tree);
  /* The view keeps its weight: the layout it builds is in that column. */
  afg_flame_view_set_tree (self->flame_view, tree);
  afg_flame_view_set_search (self->flame_view, search);
  show_values (self, thread);
  update_title (self);
  afg_steps_bar_scope_shown (self->steps_bar, tree, self->flame_view);
  _afg_window_update_actions (self);
  _afg_window_report_state (self);
}

static void
on_scope_built (AfgWindow *self, AfgTree *tree, AfgStepsBar *bar)
{
  show_scoped_tree (self, tree);
}

/* The tree of the strip's steps; with @may_compare, B of the step
 * comparison that waits for it or shows. */
static void
show_strip_range (AfgWindow *self, gboolean may_compare)
{
  /* A diff's tree has a document of its own; the strip is its sides'. */
  AfgDocument *document = afg_step_compare_get_document (self->step_compare);
  AfgScope scope = { 0 };

  if (document == NULL)
    document = window_document (self);
  if (document == NULL)
    return;
  afg_steps_bar_start_clock (self->steps_bar);
  if (!afg_steps_bar_get_scope (self->steps_bar, document, &scope))
    return;
  if (!may_compare || !afg_step_compare_take (self->step_compare, document, &scope))
    afg_steps_bar_build (self->steps_bar, document, &scope);
}

static void
on_range_changed (AfgWindow *self, AfgStepStrip *strip)
{
  show_strip_range (self, TRUE);
}

/* "While NPU idle": the same steps again, in or out of the idle instants. */
static void
on_npu_idle_changed (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "npu-idle");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (afg_session_get_npu_idle (session)));
  /* "All ranks" first: while it is read, the diff it replaces is still
   * the session's. */
  if (afg_ranks_section_npu_idle_changed (self->ranks)
      || afg_step_compare_rescope (self->step_compare, afg_session_get_npu_idle (session)))
    return;
  if (_afg_window_is_comparing (self))
    afg_compare_section_recompare (self->compare);
  else if (window_document (self) != NULL)
    show_strip_range (self, FALSE);
}

static void
change_npu_idle (GSimpleAction *action, GVariant *state, gpointer data)
{
  AfgWindow *self = data;

  afg_session_set_npu_idle (self->session, g_variant_get_boolean (state));
}

static void
on_per_step_toggled (AfgWindow *self, GParamSpec *pspec, AfgStepsBar *bar)
{
  if (_afg_window_get_tree (self) == NULL)
    return;
  show_values (self, selected_thread (self));
  /* The selected frame's line in the status bar shows a value too. */
  g_object_notify (G_OBJECT (self->flame_view), "selected-node");
  _afg_window_report_state (self);
}

void
_afg_window_steps_show (AfgWindow *self)
{
  AfgDocument *document = window_document (self);
  GAction *idle = g_action_map_lookup_action (G_ACTION_MAP (self), "npu-idle");
  gboolean all_ranks = afg_ranks_section_showing_all (self->ranks);
  gboolean has_device = all_ranks ? afg_ranks_section_all_have_device (self->ranks)
                                  : afg_document_get_timeline (document) != NULL;

  afg_step_compare_reset (self->step_compare);
  afg_steps_bar_show_document (self->steps_bar, document);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (idle), has_device);
  /* "All ranks" has no steps of its own: the toggle alone, as for a DB
   * without steps. */
  if (all_ranks && has_device)
    gtk_widget_set_visible (GTK_WIDGET (self->steps_bar), TRUE);
  afg_flame_view_set_divisor (self->flame_view, afg_steps_bar_get_divisor (self->steps_bar));
  /* "While NPU idle" stays on for the next file when it can. */
  if (afg_session_get_npu_idle (self->session) && !has_device)
    afg_session_set_npu_idle (self->session, FALSE);
  else if (afg_session_get_npu_idle (self->session) && !all_ranks)
    on_range_changed (self, afg_steps_bar_get_strip (self->steps_bar));
}

/* The "npu-idle" action, the session's switch of the same name. */
void
_afg_window_steps_init (AfgWindow *self)
{
  g_autoptr(GSimpleAction) idle = g_simple_action_new_stateful ("npu-idle", NULL, g_variant_new_boolean (FALSE));
  AfgStepStrip *strip = afg_steps_bar_get_strip (self->steps_bar);

  afg_steps_bar_set_session (self->steps_bar, self->session);
  g_signal_connect (idle, "change-state", G_CALLBACK (change_npu_idle), self);
  g_simple_action_set_enabled (idle, FALSE);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (idle));
  g_signal_connect_object (self->session, "notify::npu-idle", G_CALLBACK (on_npu_idle_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->steps_bar, "scope-built", G_CALLBACK (on_scope_built), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->steps_bar, "notify::per-step", G_CALLBACK (on_per_step_toggled), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (strip, "range-changed", G_CALLBACK (on_range_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (strip, "notify::hover", G_CALLBACK (_afg_window_report_state), self, G_CONNECT_SWAPPED);
}

void
_afg_window_steps_show_tree (AfgWindow *self, AfgTree *tree)
{
  afg_steps_bar_cancel (self->steps_bar);
  show_scoped_tree (self, tree);
}

void
_afg_window_steps_hide (AfgWindow *self)
{
  afg_steps_bar_cancel (self->steps_bar);
  afg_step_compare_reset (self->step_compare);
  afg_steps_bar_hide (self->steps_bar);
}
