/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-weight-menu"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-settings.h"
#include "afg-weight-menu.h"

/* Whether the widths, the thread picker's totals and the search share
 * are host time or the device time launched from each frame, all of it
 * or one kind (compute kernels, collectives, their exposed part). The
 * choice is remembered; it applies only where it can (a tree with that
 * column, no comparison), and each item says why when it cannot. Ctrl+N
 * goes between host time and the device weight chosen last. */

struct _AfgWeightMenu {
  GtkWidget      parent_instance;

  /* Template children */
  GtkMenuButton *button;
  GtkBox        *box;

  /* Owned */
  AfgSession    *session;
  GSimpleAction *action;  /* "weight" */
  GSimpleAction *toggle;  /* "toggle-weight" */
  gboolean       on_graph;  /* the window's graph page is shown */
};

G_DEFINE_FINAL_TYPE (AfgWeightMenu, afg_weight_menu, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_ON_GRAPH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

/* A tree on the window's graph page: what the menu weighs. */
static gboolean
has_graph (AfgWeightMenu *self)
{
  return self->on_graph && afg_session_get_tree (self->session) != NULL;
}

/* Why the menu can choose no weight, NULL when it can. */
static char *
menu_unavailable_reason (AfgWeightMenu *self)
{
  if (!has_graph (self))
    return g_strdup (_("Open a profiler database to choose the weight"));
  if (afg_session_get_comparing (self->session))
    return g_strdup (_("A comparison keeps the weight it was made in"));
  return NULL;
}

/* Why @weight cannot be shown, NULL when it can. */
static char *
unavailable_reason (AfgWeightMenu *self, AfgWeight weight)
{
  AfgTree *tree = afg_session_get_tree (self->session);
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

/* Only a weight the tree on screen can show: a disabled item asks for nothing. */
static void
choose (AfgWeightMenu *self, AfgWeight weight)
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
 * (set by refresh()) asks for nothing. */
static void
on_item_toggled (GtkCheckButton *button, AfgWeightMenu *self)
{
  AfgWeight weight = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "weight"));

  if (gtk_check_button_get_active (button) && weight != afg_session_get_shown_weight (self->session))
    {
      choose (self, weight);
      gtk_popover_popdown (gtk_menu_button_get_popover (self->button));
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
on_weight_chosen (AfgWeightMenu *self, GParamSpec *pspec, AfgSession *session)
{
  g_simple_action_set_state (self->action,
                             g_variant_new_string (afg_weight_to_string (afg_session_get_weight (session))));
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
update_items (AfgWeightMenu *self, AfgWeight shown)
{
  for (GtkWidget *item = gtk_widget_get_first_child (GTK_WIDGET (self->box)); item != NULL;
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

/* The label names the weight the widths show; the menu is hidden off the
 * graph and for a comparison, which has its own options in the header
 * and no room for both. Runs on every change of what it reads. */
static void
refresh (AfgWeightMenu *self)
{
  g_autofree char *reason = NULL;
  g_autofree char *device_reason = NULL;
  g_autofree char *tip = NULL;
  AfgWeight shown;
  AfgWeight device;
  gboolean graph;

  if (self->session == NULL)
    return;
  graph = has_graph (self);
  reason = menu_unavailable_reason (self);
  device = afg_session_get_device_weight (self->session);
  device_reason = unavailable_reason (self, device);
  shown = graph ? afg_session_get_shown_weight (self->session) : AFG_WEIGHT_HOST;
  gtk_menu_button_set_label (self->button, _(items[item_of (shown)].short_label));
  gtk_widget_set_visible (GTK_WIDGET (self), graph && !afg_session_get_comparing (self->session));
  gtk_widget_set_sensitive (GTK_WIDGET (self), reason == NULL);
  update_items (self, shown);
  if (reason == NULL)
    /* Translators: the weight menu's tooltip: the weight shown, then Ctrl+N's target. */
    tip = g_strdup_printf (_("%s. Ctrl+N: %s"), _(items[item_of (shown)].tip),
                           device_reason ? device_reason
                                         : _(items[item_of (shown == AFG_WEIGHT_HOST ? device : AFG_WEIGHT_HOST)].label));
  set_tooltip (GTK_WIDGET (self->button), reason ? reason : tip);
  g_simple_action_set_enabled (self->toggle, device_reason == NULL);
}

static void
toggle_weight (GSimpleAction *action, GVariant *param, gpointer data)
{
  AfgWeightMenu *self = data;

  choose (self, afg_session_get_shown_weight (self->session) == AFG_WEIGHT_HOST
                  ? afg_session_get_device_weight (self->session) : AFG_WEIGHT_HOST);
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
add_items (AfgWeightMenu *self)
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
      gtk_box_append (self->box, item);
    }
}

static void
afg_weight_menu_dispose (GObject *object)
{
  AfgWeightMenu *self = AFG_WEIGHT_MENU (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_WEIGHT_MENU);
  g_clear_object (&self->action);
  g_clear_object (&self->toggle);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (afg_weight_menu_parent_class)->dispose (object);
}

static void
afg_weight_menu_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgWeightMenu *self = AFG_WEIGHT_MENU (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_ON_GRAPH:
      g_value_set_boolean (value, self->on_graph);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_weight_menu_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgWeightMenu *self = AFG_WEIGHT_MENU (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      afg_weight_menu_set_session (self, g_value_get_object (value));
      break;
    case PROP_ON_GRAPH:
      afg_weight_menu_set_on_graph (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_weight_menu_class_init (AfgWeightMenuClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_weight_menu_dispose;
  object_class->get_property = afg_weight_menu_get_property;
  object_class->set_property = afg_weight_menu_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AFG_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ON_GRAPH] =
    g_param_spec_boolean ("on-graph", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-weight-menu.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgWeightMenu, button);
  gtk_widget_class_bind_template_child (widget_class, AfgWeightMenu, box);
}

static void
afg_weight_menu_init (AfgWeightMenu *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->action = g_simple_action_new_stateful ("weight", G_VARIANT_TYPE_STRING,
                                               g_variant_new_string (afg_weight_to_string (AFG_WEIGHT_HOST)));
  g_signal_connect (self->action, "change-state", G_CALLBACK (change_weight), self);
  self->toggle = g_simple_action_new ("toggle-weight", NULL);
  g_signal_connect (self->toggle, "activate", G_CALLBACK (toggle_weight), self);
  add_items (self);
  narrow (gtk_widget_get_first_child (GTK_WIDGET (self->button)));
}

/* The session's weight starts as the "weight" setting: an unknown value
 * (a newer schema's) is host. */
void
afg_weight_menu_set_session (AfgWeightMenu *self, AfgSession *session)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *setting = settings ? g_settings_get_string (settings, "weight") : NULL;
  AfgWeight weight = AFG_WEIGHT_HOST;

  g_return_if_fail (AFG_IS_WEIGHT_MENU (self));
  g_return_if_fail (AFG_IS_SESSION (session));
  g_return_if_fail (self->session == NULL);

  self->session = g_object_ref (session);
  afg_weight_from_string (setting, &weight);
  afg_session_set_weight (session, weight);
  on_weight_chosen (self, NULL, session);
  g_signal_connect_object (session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
  /* The column notifies the weight shown; the tree, what it can show. */
  g_signal_connect_object (session, "notify::tree", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::column", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::comparing", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::device-weight", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

gboolean
afg_weight_menu_get_on_graph (AfgWeightMenu *self)
{
  g_return_val_if_fail (AFG_IS_WEIGHT_MENU (self), FALSE);
  return self->on_graph;
}

void
afg_weight_menu_set_on_graph (AfgWeightMenu *self, gboolean on_graph)
{
  g_return_if_fail (AFG_IS_WEIGHT_MENU (self));
  if (self->on_graph == !!on_graph)
    return;
  self->on_graph = !!on_graph;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ON_GRAPH]);
}

void
afg_weight_menu_add_actions (AfgWeightMenu *self, GActionMap *map)
{
  g_return_if_fail (AFG_IS_WEIGHT_MENU (self));
  g_action_map_add_action (map, G_ACTION (self->action));
  g_action_map_add_action (map, G_ACTION (self->toggle));
}

GtkMenuButton *
afg_weight_menu_get_button (AfgWeightMenu *self)
{
  g_return_val_if_fail (AFG_IS_WEIGHT_MENU (self), NULL);
  return self->button;
}

const char *
afg_weight_menu_get_label (AfgWeight weight)
{
  return _(items[item_of (weight)].label);
}
