/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-call-durations.h"
#include "afg-format.h"
#include "afg-function-item.h"
#include "afg-function-panel.h"
#include "afg-kernel-list.h"
#include "afg-worker.h"
#include "afg-writers.h"

#define SANDWICH_HEIGHT 120

struct _AfgFunctionPanel {
  GtkWidget             parent_instance;

  GtkWidget            *paned;
  GtkColumnView        *column_view;
  GtkColumnViewColumn  *self_column;
  GtkColumnViewColumn  *total_column;
  GtkSingleSelection   *selection;
  GtkFilterListModel   *filtered;
  GtkStringFilter      *filter;
  GtkLabel             *sandwich_label;
  AfgFlameView         *callers;
  AfgFlameView         *callees;
  GtkLabel             *histogram_label;
  AfgDurationHistogram *histogram;
  GtkWidget            *row_menu;  /* a row's transforms */
  AfgKernelList        *kernels;   /* the Kernels tab */

  AfgTree              *tree;
  AfgFunctionTable     *table;
  AfgWorker            *collector;  /* the histogram's call durations */
  guint                 selected;  /* function index, AFG_FUNCTION_NONE */
  guint                 placed : 1; /* the table/details split was set */
  guint32               frame;     /* the histogram's frame, AFG_NODE_NONE for the function */
  AfgColumn             weight;
  guint                 divisor;   /* "Per step": the table's calls and times divided by it */
};

G_DEFINE_FINAL_TYPE (AfgFunctionPanel, afg_function_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SELECTED,
  PROP_HISTOGRAM_VALUES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef enum {
  COLUMN_NAME,
  COLUMN_CALLS,
  COLUMN_SELF,
  COLUMN_TOTAL,
  COLUMN_PERCENT,
} ColumnKind;

/* Per step as the graph's tooltip divides: the share stays a share. */
static char *
cell_text (AfgFunctionItem *item, ColumnKind kind, guint divisor)
{
  gint64 calls, self_ns, total_ns;
  double percent;

  g_object_get (item, "calls", &calls, "self-ns", &self_ns, "total-ns", &total_ns,
                "percent", &percent, NULL);
  switch (kind)
    {
    case COLUMN_CALLS: return afg_format_count ((double) calls / divisor);
    case COLUMN_SELF: return afg_format_duration (self_ns / divisor);
    case COLUMN_TOTAL: return afg_format_duration (total_ns / divisor);
    case COLUMN_PERCENT: return afg_format_share (percent);
    case COLUMN_NAME: default: return g_strdup (afg_function_item_get_name (item));
    }
}

/* The transforms a function's row offers, for the window's
 * win.add-transform (afg-window-transforms.c). */
static GMenuModel *
row_menu_model (const char *name)
{
  static const struct { const char *label; const char *op; } items[] = {
    { N_("Focus on Function"), "focus-function" },
    { N_("Merge Function"), "merge-function" },
    { N_("Drop Function"), "drop-function" },
    { N_("Collapse Recursion"), "collapse-recursion" },
    { N_("Collapse Indirect Recursion"), "collapse-indirect-recursion" },
  };
  GMenu *menu = g_menu_new ();
  /* A name, not a pattern: "//" keeps one that starts with '/' literal. */
  g_autofree char *arg = name[0] == '/' ? g_strconcat ("/", name, NULL) : g_strdup (name);

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(items[i].label), NULL);

      g_menu_item_set_action_and_target_value (item, "win.add-transform", g_variant_new ("(ss)", items[i].op, arg));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

static GtkListItem *
cell_list_item (GtkWidget *widget)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), "afg-list-item");

  if (list_item == NULL && child != NULL)
    list_item = g_object_get_data (G_OBJECT (child), "afg-list-item");
  return list_item;
}

/* The row under a point of the table: a cell's label knows its list
 * item, and a pick finds the label or, beside its text, the cell. */
static AfgFunctionItem *
item_at (GtkWidget *table, double x, double y)
{
  for (GtkWidget *w = gtk_widget_pick (table, x, y, GTK_PICK_DEFAULT); w != NULL && w != table;
       w = gtk_widget_get_parent (w))
    {
      GtkListItem *list_item = cell_list_item (w);

      if (list_item != NULL)
        return gtk_list_item_get_item (list_item);
    }
  return NULL;
}

/* A right click on a row offers the transforms of its function. */
static void
on_table_secondary (GtkGestureClick *gesture, int n_press, double x, double y, AfgFunctionPanel *self)
{
  GtkWidget *table = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  AfgFunctionItem *item = item_at (table, x, y);
  g_autoptr(GMenuModel) model = NULL;
  double px, py;

  if (item == NULL || !gtk_widget_translate_coordinates (table, GTK_WIDGET (self), x, y, &px, &py))
    return;
  model = row_menu_model (afg_function_item_get_name (item));
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_menu), &(GdkRectangle) { (int) px, (int) py, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_menu));
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  ColumnKind kind = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  g_object_set_data (G_OBJECT (label), "afg-list-item", list_item);

  gtk_label_set_xalign (GTK_LABEL (label), kind == COLUMN_NAME ? 0 : 1);
  if (kind == COLUMN_NAME)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  AfgFunctionPanel *self = data;
  ColumnKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "kind"));
  AfgFunctionItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = cell_text (item, kind, self->divisor);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (kind == COLUMN_NAME)
    gtk_widget_set_tooltip_text (label, text);
}

static GtkSorter *
column_sorter (ColumnKind kind)
{
  static const char *props[] = { "name", "calls", "self-ns", "total-ns", "percent" };
  GtkExpression *expr = gtk_property_expression_new (AFG_TYPE_FUNCTION_ITEM, NULL, props[kind]);

  if (kind == COLUMN_NAME)
    return GTK_SORTER (gtk_string_sorter_new (expr));
  return GTK_SORTER (gtk_numeric_sorter_new (expr));
}

static GtkColumnViewColumn *
add_column (AfgFunctionPanel *self, const char *title, ColumnKind kind)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = column_sorter (kind);
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (kind));
  g_object_set_data (G_OBJECT (factory), "kind", GINT_TO_POINTER (kind));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, kind == COLUMN_NAME);
  if (kind != COLUMN_NAME)
    gtk_column_view_column_set_fixed_width (column, kind == COLUMN_CALLS || kind == COLUMN_PERCENT ? 64 : 84);
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (column);
  return column;
}

static void
notify_histogram (AfgFunctionPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTOGRAM_VALUES]);
}

typedef struct {
  AfgTree *tree;
  guint8  *marks;
} DurationsRequest;

static void
durations_request_free (gpointer data)
{
  DurationsRequest *req = data;

  afg_tree_unref (req->tree);
  g_free (req->marks);
  g_free (req);
}

static gpointer
collect_durations (gpointer data, GCancellable *cancellable, GError **error)
{
  DurationsRequest *req = data;
  GArray *ns = afg_call_durations_collect (req->tree, req->marks, cancellable);

  if (ns == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, error);
  return ns;
}

static void
on_durations_collected (gpointer owner, gpointer ns, const GError *error, gpointer data)
{
  AfgFunctionPanel *self = owner;

  if (ns == NULL)
    return;
  afg_duration_histogram_set_durations (self->histogram, ns);
  notify_histogram (self);
}

static const AfgWorkerFuncs durations_funcs = {
  .name = "afg-durations",
  .run = collect_durations,
  .done = on_durations_collected,
  .free_result = (GDestroyNotify) g_array_unref,
};

/* The marks of the histogram's frames: the one picked in the graph, or
 * every frame of the picked function. */
static guint8 *
histogram_marks (AfgFunctionPanel *self)
{
  guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (self->tree));
  const guint32 *frames;
  guint n = 0;

  if (self->frame != AFG_NODE_NONE)
    marks[self->frame] = 1;
  else
    {
      frames = afg_function_table_get_frames (self->table, self->selected, &n);
      for (guint i = 0; i < n; i++)
        marks[frames[i]] = 1;
    }
  return marks;
}

static void
set_histogram_label (AfgFunctionPanel *self)
{
  g_autofree char *text = NULL;
  const char *name;

  name = self->frame != AFG_NODE_NONE ? afg_tree_get_node_name (self->tree, self->frame)
                                       : afg_function_table_get_name (self->table, self->selected);
  text = g_strdup_printf (self->frame != AFG_NODE_NONE ? _("Call durations of this frame: %s")
                                                       : _("Call durations of all its frames: %s"), name);
  gtk_label_set_text (self->histogram_label, text);
}

/* Collecting walks the threads' rows again (tens of ms on a big
 * profile): a worker does it, a newer request cancels an older one. */
static void
update_histogram (AfgFunctionPanel *self)
{
  DurationsRequest *req;

  afg_worker_cancel (self->collector);
  afg_duration_histogram_set_durations (self->histogram, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_label), self->selected != AFG_FUNCTION_NONE || self->frame != AFG_NODE_NONE);
  if (self->tree == NULL || (self->selected == AFG_FUNCTION_NONE && self->frame == AFG_NODE_NONE))
    {
      notify_histogram (self);
      return;
    }
  set_histogram_label (self);
  req = g_new (DurationsRequest, 1);
  req->tree = afg_tree_ref (self->tree);
  req->marks = histogram_marks (self);
  afg_worker_start (self->collector, &durations_funcs, req, durations_request_free);
  notify_histogram (self);
}

static void
show_sandwich (AfgFunctionPanel *self)
{
  g_autoptr(AfgTree) callers = NULL;
  g_autoptr(AfgTree) callees = NULL;
  g_autofree char *title = NULL;
  const char *name;
  AfgColumn weight;

  if (self->selected == AFG_FUNCTION_NONE)
    {
      afg_flame_view_set_tree (self->callers, NULL);
      afg_flame_view_set_tree (self->callees, NULL);
      gtk_label_set_text (self->sandwich_label, _("Pick a function to see its callers and callees"));
      return;
    }
  name = afg_function_table_get_name (self->table, self->selected);
  callers = afg_function_table_callers (self->tree, name);
  callees = afg_function_table_callees (self->tree, name);
  /* A sandwich has the device columns of its tree: the weight's, unless
   * the tree has none. */
  weight = callees != NULL && afg_tree_has_column (callees, self->weight) ? self->weight : AFG_COLUMN_TOTAL_NS;
  /* The function's total in the weight is each half's root: at zero the
   * root would fill the view with nothing, so nothing is shown. */
  if (callees != NULL && afg_tree_get_value (callees, weight, AFG_TREE_ROOT) <= 0)
    {
      g_clear_pointer (&callers, afg_tree_unref);
      g_clear_pointer (&callees, afg_tree_unref);
    }
  afg_flame_view_set_weight (self->callers, weight);
  afg_flame_view_set_weight (self->callees, weight);
  afg_flame_view_set_tree (self->callers, callers);
  afg_flame_view_set_tree (self->callees, callees);
  if (callees == NULL && weight == AFG_COLUMN_NPU_TOTAL_NS)
    title = g_strdup_printf (_("%s launched no NPU device time"), name);
  else if (callees == NULL && weight != AFG_COLUMN_TOTAL_NS)
    title = g_strdup_printf (_("%s launched no device time of this weight"), name);
  else
    title = g_strdup_printf (_("Callers (above) and callees (below) of %s"), name);
  gtk_label_set_text (self->sandwich_label, title);
}

static void
set_selected (AfgFunctionPanel *self, guint index)
{
  if (index == self->selected)
    return;
  self->selected = index;
  self->frame = AFG_NODE_NONE;
  show_sandwich (self);
  update_histogram (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
on_selection_changed (AfgFunctionPanel *self)
{
  AfgFunctionItem *item = gtk_single_selection_get_selected_item (self->selection);

  set_selected (self, item != NULL ? afg_function_item_get_index (item) : AFG_FUNCTION_NONE);
}

static void
on_sandwich_activated (AfgFlameView *view, guint node, gpointer data)
{
  afg_flame_view_zoom_to (view, node);
}

static GtkWidget *
sandwich_half (AfgFunctionPanel *self, AfgFlameView **out, gboolean callers)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *view = afg_flame_view_new ();

  afg_flame_view_set_icicle (AFG_FLAME_VIEW (view), !callers);
  g_signal_connect (view, "node-activated", G_CALLBACK (on_sandwich_activated), NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), SANDWICH_HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  *out = AFG_FLAME_VIEW (view);
  return scrolled;
}

static GtkWidget *
caption (GtkLabel **out)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  *out = GTK_LABEL (label);
  return label;
}

/* Between the two halves: a band that says which is which, not a line
 * lost between two flame graphs of the same colours. */
static GtkWidget *
sandwich_divider (void)
{
  GtkWidget *label = gtk_label_new (_("▲ Callers · Callees ▼"));

  gtk_widget_add_css_class (label, "sandwich-divider");
  gtk_widget_add_css_class (label, "caption");
  return label;
}

static GtkWidget *
build_details (AfgFunctionPanel *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *histogram = afg_duration_histogram_new ();

  gtk_box_append (GTK_BOX (box), caption (&self->sandwich_label));
  gtk_box_append (GTK_BOX (box), sandwich_half (self, &self->callers, TRUE));
  gtk_box_append (GTK_BOX (box), sandwich_divider ());
  gtk_box_append (GTK_BOX (box), sandwich_half (self, &self->callees, FALSE));
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), caption (&self->histogram_label));
  gtk_widget_set_margin_start (histogram, 6);
  gtk_widget_set_margin_end (histogram, 6);
  gtk_widget_set_margin_bottom (histogram, 6);
  gtk_box_append (GTK_BOX (box), histogram);
  self->histogram = AFG_DURATION_HISTOGRAM (histogram);
  return box;
}

/* GtkColumnView 4.8 has no scroll_to(): its inner list view has the
 * action. */
static void
scroll_to_row (AfgFunctionPanel *self, guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

/* After a re-sort the list would keep its old rows on screen: the new
 * first row is what the click asked to see. */
static void
on_sort_changed (AfgFunctionPanel *self)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    scroll_to_row (self, 0);
}

static GtkWidget *build_table (AfgFunctionPanel *self);

/* Functions and, beside them, the device kernels they launched. */
static GtkWidget *
build_tabs (AfgFunctionPanel *self)
{
  GtkWidget *notebook = gtk_notebook_new ();
  GtkWidget *kernels = afg_kernel_list_new ();

  self->kernels = AFG_KERNEL_LIST (kernels);
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), build_table (self), gtk_label_new (_("Functions")));
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), kernels, gtk_label_new (_("Kernels")));
  return notebook;
}

static GtkWidget *
build_table (AfgFunctionPanel *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkSortListModel *sorted;
  GtkGesture *secondary;

  self->filter = gtk_string_filter_new (gtk_property_expression_new (AFG_TYPE_FUNCTION_ITEM, NULL, "name"));
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->filter, TRUE);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (g_object_ref (self->filter)));
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  secondary = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  /* Before the rows' own click handling, which takes every button. */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (secondary), GTK_PHASE_CAPTURE);
  g_signal_connect (secondary, "pressed", G_CALLBACK (on_table_secondary), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (secondary));
  add_column (self, _("Function"), COLUMN_NAME);
  add_column (self, _("Calls"), COLUMN_CALLS);
  self->self_column = add_column (self, _("Self"), COLUMN_SELF);
  self->total_column = add_column (self, _("Total"), COLUMN_TOTAL);
  add_column (self, "%", COLUMN_PERCENT);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filtered)),
                                    g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->self_column, GTK_SORT_DESCENDING);
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (on_sort_changed), self, G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->column_view));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  return scrolled;
}

static void
afg_function_panel_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                            int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  gtk_widget_measure (AFG_FUNCTION_PANEL (widget)->paned, orientation, for_size,
                      minimum, natural, NULL, NULL);
}

/* The table gets half the first height the panel is given (the callers
 * and callees the other half); later the user's split stays. */
static void
afg_function_panel_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  AfgFunctionPanel *self = AFG_FUNCTION_PANEL (widget);

  if (!self->placed && height > 0)
    {
      gtk_paned_set_position (GTK_PANED (self->paned), height / 2);
      self->placed = TRUE;
    }
  gtk_widget_allocate (self->paned, width, height, baseline, NULL);
}

static void
afg_function_panel_dispose (GObject *object)
{
  AfgFunctionPanel *self = AFG_FUNCTION_PANEL (object);

  afg_worker_cancel (self->collector);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_pointer (&self->row_menu, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->table, afg_function_table_unref);
  g_clear_pointer (&self->tree, afg_tree_unref);
  G_OBJECT_CLASS (afg_function_panel_parent_class)->dispose (object);
}

static void
afg_function_panel_finalize (GObject *object)
{
  AfgFunctionPanel *self = AFG_FUNCTION_PANEL (object);

  g_clear_object (&self->collector);
  G_OBJECT_CLASS (afg_function_panel_parent_class)->finalize (object);
}

static void
afg_function_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgFunctionPanel *self = AFG_FUNCTION_PANEL (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_HISTOGRAM_VALUES:
      g_value_set_uint64 (value, afg_duration_histogram_get_n_values (self->histogram));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_function_panel_class_init (AfgFunctionPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_function_panel_dispose;
  object_class->finalize = afg_function_panel_finalize;
  object_class->get_property = afg_function_panel_get_property;
  /* The picked function's index in the table, AFG_FUNCTION_NONE for none. */
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT32, AFG_FUNCTION_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* How many durations the histogram shows; notified when they land. */
  properties[PROP_HISTOGRAM_VALUES] =
    g_param_spec_uint64 ("histogram-values", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->measure = afg_function_panel_measure;
  widget_class->size_allocate = afg_function_panel_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "functionpanel");
}

static void
afg_function_panel_init (AfgFunctionPanel *self)
{
  self->selected = AFG_FUNCTION_NONE;
  self->frame = AFG_NODE_NONE;
  self->weight = AFG_COLUMN_TOTAL_NS;
  self->divisor = 1;
  self->collector = afg_worker_new (self);
  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), build_tabs (self));
  gtk_paned_set_end_child (GTK_PANED (self->paned), build_details (self));
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  self->row_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->row_menu), FALSE);
  gtk_widget_set_parent (self->row_menu, GTK_WIDGET (self));
  show_sandwich (self);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_label), FALSE);
}

GtkWidget *
afg_function_panel_new (void)
{
  return g_object_new (AFG_TYPE_FUNCTION_PANEL, NULL);
}

/* Builds the table of @tree (taken, may be NULL), picking the same
 * function again. */
static void
load_tree (AfgFunctionPanel *self, AfgTree *tree)
{
  g_autofree char *picked = NULL;
  g_autoptr(GListModel) items = NULL;

  if (self->selected != AFG_FUNCTION_NONE)
    picked = g_strdup (afg_function_table_get_name (self->table, self->selected));
  g_signal_handlers_block_by_func (self->selection, on_selection_changed, self);
  gtk_filter_list_model_set_model (self->filtered, NULL);
  g_signal_handlers_unblock_by_func (self->selection, on_selection_changed, self);
  self->selected = AFG_FUNCTION_NONE;
  g_clear_pointer (&self->table, afg_function_table_unref);
  g_clear_pointer (&self->tree, afg_tree_unref);
  self->tree = tree;
  if (tree != NULL)
    {
      self->table = afg_function_table_new (tree);
      items = afg_function_item_list_new (self->table, self->weight);
      gtk_filter_list_model_set_model (self->filtered, items);
    }
  afg_kernel_list_set_tree (self->kernels, tree);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  show_sandwich (self);
  update_histogram (self);
  afg_function_panel_select (self, picked);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

void
afg_function_panel_set_tree (AfgFunctionPanel *self, AfgTree *tree)
{
  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));

  if (tree != self->tree)
    load_tree (self, tree ? afg_tree_ref (tree) : NULL);
}

AfgFunctionTable *
afg_function_panel_get_table (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->table;
}

void
afg_function_panel_set_filter (AfgFunctionPanel *self, const char *text)
{
  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));

  gtk_string_filter_set_search (self->filter, text != NULL && text[0] != '\0' ? text : NULL);
}

guint
afg_function_panel_get_n_shown (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

static guint
find_position (AfgFunctionPanel *self, guint index)
{
  GListModel *model = G_LIST_MODEL (self->selection);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(AfgFunctionItem) item = g_list_model_get_item (model, i);

      if (afg_function_item_get_index (item) == index)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* A function the search filters out is still picked: the graph and the
 * sandwich show it, the table has no row to mark. */
void
afg_function_panel_select (AfgFunctionPanel *self, const char *name)
{
  guint index = AFG_FUNCTION_NONE;
  guint position = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));

  if (name != NULL && self->table != NULL)
    index = afg_function_table_find (self->table, name);
  if (index != AFG_FUNCTION_NONE)
    position = find_position (self, index);
  g_signal_handlers_block_by_func (self->selection, on_selection_changed, self);
  gtk_single_selection_set_selected (self->selection, position);
  g_signal_handlers_unblock_by_func (self->selection, on_selection_changed, self);
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to_row (self, position);
  set_selected (self, index);
}

guint
afg_function_panel_get_selected (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), AFG_FUNCTION_NONE);
  return self->selected;
}

void
afg_function_panel_show_frame (AfgFunctionPanel *self, guint32 node)
{
  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));
  g_return_if_fail (node == AFG_NODE_NONE || (self->tree != NULL && node < afg_tree_get_n_nodes (self->tree)));

  if (node != AFG_NODE_NONE && afg_tree_get_node (self->tree, node)->depth < 2)
    node = AFG_NODE_NONE;
  if (node == self->frame)
    return;
  self->frame = node;
  update_histogram (self);
}

AfgFlameView *
afg_function_panel_get_callers (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->callers;
}

AfgFlameView *
afg_function_panel_get_callees (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->callees;
}

AfgDurationHistogram *
afg_function_panel_get_histogram (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->histogram;
}

gboolean
afg_function_panel_is_busy (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), FALSE);
  return afg_worker_is_running (self->collector);
}

AfgKernelList *
afg_function_panel_get_kernels (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->kernels;
}

GtkColumnView *
afg_function_panel_get_column_view (AfgFunctionPanel *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);
  return self->column_view;
}

static void
set_titles (AfgFunctionPanel *self, AfgWeight weight)
{
  static const char *titles[][2] = {
    [AFG_WEIGHT_HOST] = { N_("Self"), N_("Total") },
    [AFG_WEIGHT_NPU] = { N_("NPU self"), N_("NPU total") },
    [AFG_WEIGHT_COMPUTE] = { N_("Compute self"), N_("Compute total") },
    [AFG_WEIGHT_COMM] = { N_("Comm self"), N_("Comm total") },
    [AFG_WEIGHT_EXPOSED] = { N_("Exposed self"), N_("Exposed total") },
  };

  gtk_column_view_column_set_title (self->self_column, _(titles[weight][0]));
  gtk_column_view_column_set_title (self->total_column, _(titles[weight][1]));
}

/* The table's times, the kernels' order and the sandwich's widths under
 * @weight, a weight's total column (afg_weight_get_total_column()): host
 * time or the device time the frames launched (the call durations stay
 * host time). */
void
afg_function_panel_set_weight (AfgFunctionPanel *self, AfgColumn weight)
{
  AfgWeight w;

  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));
  g_return_if_fail (afg_weight_from_total_column (weight, &w));

  if (weight == self->weight)
    return;
  self->weight = weight;
  set_titles (self, w);
  afg_kernel_list_set_weight (self->kernels, w);
  if (self->tree != NULL)
    load_tree (self, afg_tree_ref (self->tree));
}

/* Per step: the table's calls, self and total divided by @divisor (1:
 * as they are), as the graph's tooltips show them. */
void
afg_function_panel_set_divisor (AfgFunctionPanel *self, guint divisor)
{
  g_return_if_fail (AFG_IS_FUNCTION_PANEL (self));
  g_return_if_fail (divisor > 0);

  if (divisor == self->divisor)
    return;
  self->divisor = divisor;
  if (self->tree != NULL)
    load_tree (self, afg_tree_ref (self->tree));
}

char *
afg_function_panel_get_row_text (AfgFunctionPanel *self, guint position)
{
  g_autoptr(AfgFunctionItem) item = NULL;
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (AFG_IS_FUNCTION_PANEL (self), NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  for (ColumnKind kind = COLUMN_NAME; item != NULL && kind <= COLUMN_PERCENT; kind++)
    {
      g_autofree char *cell = cell_text (item, kind, self->divisor);

      g_string_append_printf (text, "%s%s", kind > COLUMN_NAME ? "\t" : "", cell);
    }
  return g_string_free (text, FALSE);
}
