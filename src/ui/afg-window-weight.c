/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-settings.h"
#include "afg-window-private.h"

/* The weight switch of the header bar: whether the widths, the thread
 * picker's totals and the search share are host time or the NPU device
 * time launched from each frame. The choice is remembered; it applies
 * only where it can (a tree with NPU columns, no comparison), and the
 * switch says why when it cannot. */

static gboolean
tree_has_npu (AfgTree *tree)
{
  return tree != NULL && afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS);
}

/* What the widths of the tree on screen follow now. */
AfgColumn
_afg_window_weight_column (AfgWindow *self)
{
  return afg_session_get_column (self->session);
}

static gboolean
on_graph (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "graph") == 0;
}

/* Why the switch is insensitive, NULL when it is not. */
static char *
unavailable_reason (AfgWindow *self)
{
  const char *warning;

  if (!on_graph (self))
    return g_strdup (_("Open a profiler database to choose the weight"));
  if (_afg_window_is_comparing (self))
    return g_strdup (_("A comparison shows host time only"));
  if (tree_has_npu (_afg_window_get_tree (self)))
    return NULL;
  warning = afg_document_get_npu_warning (afg_tree_get_document (_afg_window_get_tree (self)));
  if (warning != NULL)
    return g_strdup_printf (_("No NPU time: %s"), warning);
  return g_strdup (_("No NPU time: this database has no TASK and CONNECTION_IDS tables"));
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
  if (on_graph (self) && _afg_window_weight_column (self) != afg_flame_view_get_weight (self->flame_view))
    {
      afg_flame_view_set_weight (self->flame_view, _afg_window_weight_column (self));
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

static void
choose (AfgWindow *self, gboolean npu)
{
  GSettings *settings = afg_settings_get ();

  afg_session_set_weight (self->session, npu ? AFG_SESSION_WEIGHT_NPU : AFG_SESSION_WEIGHT_HOST);
  if (settings != NULL)
    g_settings_set_string (settings, "weight", npu ? "npu" : "host");
}

/* The switch shows the weight on screen: a toggle that only follows it
 * (a tree without NPU time shown while NPU is chosen) asks for nothing. */
static void
on_npu_toggled (AfgWindow *self, GtkToggleButton *button)
{
  gboolean active = gtk_toggle_button_get_active (button);

  if (active != (afg_session_get_column (self->session) == AFG_COLUMN_NPU_TOTAL_NS))
    choose (self, active);
}

static void
toggle_weight_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  choose (self, _afg_window_weight_column (self) != AFG_COLUMN_NPU_TOTAL_NS);
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

/* Only a change: setting a tooltip queries the one under the pointer
 * again, and this runs on every zoom. */
static void
set_tooltip (GtkWidget *widget, const char *text)
{
  const char *old = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (old, text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

/* Called by _afg_window_update_actions: the switch shows the weight on
 * screen, and is sensitive only when the other one could be shown. */
void
_afg_window_weight_update (AfgWindow *self)
{
  g_autofree char *reason = unavailable_reason (self);
  gboolean npu = on_graph (self) && afg_flame_view_get_weight (self->flame_view) == AFG_COLUMN_NPU_TOTAL_NS;

  gtk_toggle_button_set_active (self->npu_button, npu);
  /* A comparison has its own options in the header, and no room for both. */
  gtk_widget_set_visible (GTK_WIDGET (self->npu_button), on_graph (self) && !_afg_window_is_comparing (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->npu_button), reason == NULL);
  set_tooltip (GTK_WIDGET (self->npu_button),
               reason ? reason : npu ? _("Widths show NPU device time: the time of the tasks each frame launched. Click for host time (Ctrl+N)")
                                     : _("Widths show host time. Click for NPU device time: the time of the tasks each frame launched (Ctrl+N)"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-weight", reason == NULL);
}

/* The status line's device time, the CLI summary's figures: linked to a
 * frame, and unlinked (no launching call); NULL without NPU data. */
char *
_afg_window_weight_describe_npu (AfgWindow *self)
{
  const AfgNpuStats *npu = _afg_window_get_tree (self) ? afg_document_get_npu_stats (afg_tree_get_document (_afg_window_get_tree (self))) : NULL;
  g_autofree char *linked = NULL;
  g_autofree char *unlinked = NULL;

  if (npu == NULL)
    return NULL;
  linked = afg_format_duration (npu->ns - npu->unlinked_ns);
  unlinked = afg_format_duration (npu->unlinked_ns);
  return g_strdup_printf (_("NPU %s linked (%'" PRIu64 " tasks), %s unlinked (%'" PRIu64 ")"),
                          linked, npu->tasks - npu->unlinked_tasks, unlinked, npu->unlinked_tasks);
}

/* Narrow, for the header to fit in 640 px. On the button itself, not in
 * the app's style.css: windows made without the app are measured too. */
static void
narrow (GtkWidget *button)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_data (provider, "button { padding-left: 3px; padding-right: 3px; }", -1);
  gtk_style_context_add_provider (gtk_widget_get_style_context (button), GTK_STYLE_PROVIDER (provider),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

void
_afg_window_weight_init (AfgWindow *self)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *weight = settings ? g_settings_get_string (settings, "weight") : NULL;

  afg_session_set_weight (self->session, g_strcmp0 (weight, "npu") == 0 ? AFG_SESSION_WEIGHT_NPU
                                                                        : AFG_SESSION_WEIGHT_HOST);
  g_signal_connect_object (self->session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
  narrow (GTK_WIDGET (self->npu_button));
}

void
_afg_window_weight_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, npu_button);
  gtk_widget_class_bind_template_callback_full (widget_class, "_afg_window_weight_on_npu_toggled",
                                                G_CALLBACK (on_npu_toggled));
  gtk_widget_class_install_action (widget_class, "win.toggle-weight", NULL, toggle_weight_action);
}
