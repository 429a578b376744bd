/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-settings.h"
#include "afg-window-private.h"

/* The weight menu of the header bar: whether the widths, the thread
 * picker's totals and the search share are host time or the device time
 * launched from each frame, all of it or one kind (compute kernels,
 * collectives, their exposed part). The choice is remembered; it applies
 * only where it can (a tree with that column, no comparison), and each
 * item says why when it cannot. Ctrl+N goes between host time and the
 * device weight chosen last. */

/* In the menu's order; the short label is the button's. */
static const struct {
  AfgWeight   weight;
  const char *label;
  const char *short_label;
  const char *tip;
} items[] = {
  { AFG_WEIGHT_HOST, N_("Host"), N_("Host"), N_("Widths show host time") },
  { AFG_WEIGHT_COMPUTE, N_("NPU compute"), N_("Compute"),
    N_("Widths show the compute kernels' device time each frame launched; the kernels are yellow leaves above it") },
  { AFG_WEIGHT_COMM, N_("Communication"), N_("Comm"),
    N_("Widths show the collectives' device time each frame launched; the collectives are violet leaves above it") },
  { AFG_WEIGHT_EXPOSED, N_("Exposed communication"), N_("Exposed"),
    N_("Widths show the part of each collective not hidden behind compute: waiting for other ranks and the link") },
  { AFG_WEIGHT_NPU, N_("All device tasks"), N_("NPU"),
    N_("Widths show the time of every device task each frame launched, waits and copies included") },
};

static guint
item_of (AfgWeight weight)
{
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    if (items[i].weight == weight)
      return i;
  g_return_val_if_reached (0);
}

/* What the widths of the tree on screen follow now. */
AfgColumn
_afg_window_weight_column (AfgWindow *self)
{
  return afg_session_get_column (self->session);
}

/* The total column of the weight chosen, which a comparison asked for
 * now weighs where both its sides have it. */
AfgColumn
_afg_window_weight_chosen (AfgWindow *self)
{
  return afg_weight_get_total_column (afg_session_get_weight (self->session));
}

static gboolean
on_graph (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "graph") == 0;
}

/* Why the menu can choose no weight, NULL when it can. */
static char *
menu_unavailable_reason (AfgWindow *self)
{
  if (!on_graph (self))
    return g_strdup (_("Open a profiler database to choose the weight"));
  if (_afg_window_is_comparing (self))
    return g_strdup (_("A comparison keeps the weight it was made in"));
  return NULL;
}

/* Why @weight cannot be shown, NULL when it can. */
static char *
unavailable_reason (AfgWindow *self, AfgWeight weight)
{
  AfgTree *tree = _afg_window_get_tree (self);
  const char *warning;
  char *reason = menu_unavailable_reason (self);

  if (reason != NULL || weight == AFG_WEIGHT_HOST || afg_tree_has_column (tree, afg_weight_get_total_column (weight)))
    return reason;
  if (afg_tree_get_scope (tree)->npu_idle)
    return g_strdup (_("While the NPU is idle there is host time only"));
  if (afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS))
    return g_strdup (_("This tree has the device time of all tasks only, not by kind"));
  warning = afg_document_get_npu_warning (afg_tree_get_document (tree));
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
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "weight");

  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_string (afg_weight_to_string (afg_session_get_weight (session))));
  apply (self);
}

/* Only a weight the tree on screen can show: a disabled item asks for nothing. */
static void
choose (AfgWindow *self, AfgWeight weight)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *reason = unavailable_reason (self, weight);

  if (reason != NULL)
    return;
  afg_session_set_weight (self->session, weight);
  if (settings != NULL)
    g_settings_set_string (settings, "weight", afg_weight_to_string (weight));
}

/* The items show the weight on screen: an item that only follows it
 * (set by _afg_window_weight_update) asks for nothing. */
static void
on_item_toggled (GtkCheckButton *button, AfgWindow *self)
{
  AfgWeight weight = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "weight"));

  if (gtk_check_button_get_active (button) && weight != afg_session_get_shown_weight (self->session))
    {
      choose (self, weight);
      gtk_popover_popdown (gtk_menu_button_get_popover (self->weight_button));
    }
}

static void
change_weight (GSimpleAction *action, GVariant *state, gpointer data)
{
  AfgWeight weight;

  if (afg_weight_from_string (g_variant_get_string (state, NULL), &weight))
    choose (data, weight);
}

static void
toggle_weight_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  choose (self, afg_session_get_shown_weight (self->session) == AFG_WEIGHT_HOST
                  ? afg_session_get_device_weight (self->session) : AFG_WEIGHT_HOST);
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

/* The menu's name of @weight ("NPU compute"), translated. */
const char *
_afg_window_weight_label (AfgWeight weight)
{
  return _(items[item_of (weight)].label);
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

/* Only a change: setting a tooltip queries the one under the pointer
 * again, and this runs on every zoom. */
static void
set_tooltip (GtkWidget *widget, const char *text)
{
  const char *old = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (old, text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}


/* Each item: checked for the weight shown, disabled with the reason as
 * its tooltip for one the tree lacks. */
static void
update_items (AfgWindow *self, AfgWeight shown)
{
  for (GtkWidget *item = gtk_widget_get_first_child (GTK_WIDGET (self->weight_box)); item != NULL;
       item = gtk_widget_get_next_sibling (item))
    {
      guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "item"));
      g_autofree char *reason = unavailable_reason (self, items[i].weight);

      g_signal_handlers_block_by_func (item, on_item_toggled, self);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (item), items[i].weight == shown);
      g_signal_handlers_unblock_by_func (item, on_item_toggled, self);
      gtk_widget_set_sensitive (item, reason == NULL);
      set_tooltip (item, reason ? reason : _(items[i].tip));
    }
}

/* Called by _afg_window_update_actions: the menu's label names the weight
 * on screen; Ctrl+N works when the device weight it goes to can be shown. */
void
_afg_window_weight_update (AfgWindow *self)
{
  g_autofree char *reason = menu_unavailable_reason (self);
  AfgWeight device = afg_session_get_device_weight (self->session);
  g_autofree char *device_reason = unavailable_reason (self, device);
  AfgWeight shown = AFG_WEIGHT_HOST;
  g_autofree char *tip = NULL;

  if (on_graph (self))
    shown = _afg_window_weight_shown (self);
  gtk_menu_button_set_label (self->weight_button, _(items[item_of (shown)].short_label));
  /* A comparison has its own options in the header, and no room for both. */
  gtk_widget_set_visible (GTK_WIDGET (self->weight_button), on_graph (self) && !_afg_window_is_comparing (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->weight_button), reason == NULL);
  update_items (self, shown);
  if (reason == NULL)
    /* Translators: the weight menu's tooltip: the weight shown, then Ctrl+N's target. */
    tip = g_strdup_printf (_("%s. Ctrl+N: %s"), _(items[item_of (shown)].tip),
                           device_reason ? device_reason
                                         : _(items[item_of (shown == AFG_WEIGHT_HOST ? device : AFG_WEIGHT_HOST)].label));
  set_tooltip (GTK_WIDGET (self->weight_button), reason ? reason : tip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-weight", device_reason == NULL);
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
  if (graph && gtk_widget_get_visible (GTK_WIDGET (self->function_panel)))
    top = afg_kernel_list_get_top (afg_function_panel_get_kernels (self->function_panel));
  _afg_window_append_state_field (line, "kernels", leaves);
  _afg_window_append_state_field (line, "kernel_top", top);
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

static void
add_items (AfgWindow *self)
{
  GtkCheckButton *group = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      GtkWidget *item = gtk_check_button_new_with_label (_(items[i].label));

      g_object_set_data (G_OBJECT (item), "item", GUINT_TO_POINTER (i));
      g_object_set_data (G_OBJECT (item), "weight", GUINT_TO_POINTER (items[i].weight));
      gtk_check_button_set_group (GTK_CHECK_BUTTON (item), group);
      group = group ? group : GTK_CHECK_BUTTON (item);
      g_signal_connect (item, "toggled", G_CALLBACK (on_item_toggled), self);
      gtk_box_append (self->weight_box, item);
    }
}

/* The "weight" setting: an unknown value (a newer schema's) is host. */
void
_afg_window_weight_init (AfgWindow *self)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *setting = settings ? g_settings_get_string (settings, "weight") : NULL;
  AfgWeight weight = AFG_WEIGHT_HOST;
  g_autoptr(GSimpleAction) action = NULL;

  afg_weight_from_string (setting, &weight);
  afg_session_set_weight (self->session, weight);
  action = g_simple_action_new_stateful ("weight", G_VARIANT_TYPE_STRING, g_variant_new_string (afg_weight_to_string (weight)));
  g_signal_connect (action, "change-state", G_CALLBACK (change_weight), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_signal_connect_object (self->session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
  add_items (self);
  narrow (gtk_widget_get_first_child (GTK_WIDGET (self->weight_button)));
}

void
_afg_window_weight_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, weight_button);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, weight_box);
  gtk_widget_class_install_action (widget_class, "win.toggle-weight", NULL, toggle_weight_action);
}
