/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions-pane"

#include "config.h"

#include "afg-function-item.h"
#include "afg-kernel-list.h"
#include "afg-functions-pane.h"
#include "afg-settings.h"
#include "afg-window-private.h"

/* The Functions side panel, beside the flame graph: its table
 * follows the tree on screen (a new profile, a step scope), the search
 * entry filters it, the function picked in it lights its frames in the
 * graph, and a double-click on a frame picks the frame's function. The
 * panel is built lazily: a hidden panel costs no function table. */

struct _AfgFunctionsPane {
  GtkWidget            parent_instance;

  /* Template children */
  AfgFunctionPanel    *panel;
  AfgDiffFunctionList *diff_functions;  /* in the panel's place for a diff */

  /* Owned */
  AfgSession          *session;
  GSimpleAction       *toggle;          /* "toggle-functions" */

  /* Borrowed: the window's, weak pointers to the widgets (the window
   * disposes its widgets in no order the pane could rely on) */
  GtkPaned            *paned;           /* whose end the pane is */
  AfgFlameView        *flame_view;
  AfgDiffView         *diff_view;
  AfgStepsBar         *steps_bar;
  GtkSearchEntry      *search_entry;
};

G_DEFINE_FINAL_TYPE (AfgFunctionsPane, afg_functions_pane, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define PANEL_WIDTH 460
/* The table's columns but the name's (calls, self, total, %), their
 * cells' padding and the scrollbar: what a name's width adds up with. */
#define NUMBERS_WIDTH 380
/* The rows whose names the first width fits. */
#define FIT_ROWS 20

/* The profile's panel, or the diff's list in its place. */
static gboolean
panel_shown (AfgFunctionsPane *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self));
}

/* The profile tree on screen; NULL for a diff, which has its own panel. */
static AfgTree *
shown_tree (AfgFunctionsPane *self)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);

  if (layout == NULL || afg_session_get_comparing (self->session)
      || afg_flame_layout_get_tree (layout) != afg_session_get_tree (self->session))
    return NULL;
  return afg_session_get_tree (self->session);
}

/* Whether the panel's table is of the tree on screen: frames of the one
 * are frames of the other. */
static gboolean
panel_in_step (AfgFunctionsPane *self)
{
  AfgFunctionTable *table = afg_function_panel_get_table (self->panel);

  return panel_shown (self) && table != NULL && shown_tree (self) != NULL
      && afg_function_table_get_tree (table) == shown_tree (self);
}

/* A diff's list multiplies each side's times as the graph's tooltips do. */
static void
sync_diff_scales (AfgFunctionsPane *self)
{
  double a, b;

  afg_diff_view_get_scales (self->diff_view, &a, &b);
  afg_diff_function_list_set_scales (self->diff_functions, a, b);
}

/* The table's times follow the graph's weight and Per step; a diff
 * shows its own list instead. */
static void
sync_tree (AfgFunctionsPane *self)
{
  gboolean diff = afg_session_get_comparing (self->session);

  gtk_widget_set_visible (GTK_WIDGET (self->panel), !diff);
  gtk_widget_set_visible (GTK_WIDGET (self->diff_functions), diff);
  if (!panel_shown (self))
    return;
  afg_function_panel_set_weight (self->panel, afg_flame_view_get_weight (self->flame_view));
  afg_function_panel_set_divisor (self->panel, afg_steps_bar_get_divisor (self->steps_bar));
  afg_function_panel_set_tree (self->panel, shown_tree (self));
  afg_diff_function_list_set_shape (self->diff_functions, diff ? afg_diff_view_get_shape (self->diff_view) : NULL);
  sync_diff_scales (self);
}

/* Dims every frame but the picked function's, as the page does. */
static void
highlight_function (AfgFunctionsPane *self)
{
  AfgFunctionTable *table = afg_function_panel_get_table (self->panel);
  guint picked = afg_function_panel_get_selected (self->panel);
  const guint32 *frames;
  guint8 *marks;
  guint n;

  if (!panel_in_step (self) || picked == AFG_FUNCTION_NONE)
    {
      afg_flame_view_set_highlight (self->flame_view, NULL);
      return;
    }
  frames = afg_function_table_get_frames (table, picked, &n);
  marks = g_new0 (guint8, afg_tree_get_n_nodes (afg_session_get_tree (self->session)));
  for (guint i = 0; i < n; i++)
    marks[frames[i]] = 1;
  afg_flame_view_set_highlight (self->flame_view, marks);
}

/* The function's widest frame by the graph's weight: the one to show. */
static guint32
widest_frame (AfgFunctionsPane *self, AfgFunctionTable *table, guint function)
{
  AfgColumn weight = afg_flame_view_get_weight (self->flame_view);
  guint n;
  const guint32 *frames = afg_function_table_get_frames (table, function, &n);
  guint32 best = n > 0 ? frames[0] : AFG_NODE_NONE;

  for (guint i = 1; i < n; i++)
    if (afg_tree_get_value (afg_function_table_get_tree (table), weight, frames[i])
        > afg_tree_get_value (afg_function_table_get_tree (table), weight, best))
      best = frames[i];
  return best;
}

/* A function picked in the panel: its frames lit, and its widest one
 * brought into view (scrolled to, or the zoom widened). */
static void
on_function_picked (AfgFunctionsPane *self)
{
  guint picked = afg_function_panel_get_selected (self->panel);

  highlight_function (self);
  if (panel_in_step (self) && picked != AFG_FUNCTION_NONE)
    {
      guint32 frame = widest_frame (self, afg_function_panel_get_table (self->panel), picked);

      if (frame != AFG_NODE_NONE)
        afg_flame_view_reveal_node (self->flame_view, frame);
    }
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_layout_changed (AfgFunctionsPane *self)
{
  sync_tree (self);
  highlight_function (self);
}

static void
on_frame_activated (AfgFunctionsPane *self, guint node, AfgFlameView *view)
{
  if (!panel_in_step (self) || afg_tree_get_node (afg_session_get_tree (self->session), node)->depth < 2)
    return;
  /* The frame clicked is the one in view: not the function's widest. */
  g_signal_handlers_block_by_func (self->panel, on_function_picked, self);
  afg_function_panel_select (self->panel, afg_tree_get_node_name (afg_session_get_tree (self->session), node));
  g_signal_handlers_unblock_by_func (self->panel, on_function_picked, self);
  highlight_function (self);
  g_signal_emit (self, signals[CHANGED], 0);
  afg_function_panel_show_frame (self->panel, node);
}

static void
on_frame_selected (AfgFunctionsPane *self)
{
  guint32 node = afg_flame_view_get_selected_node (self->flame_view);

  if (panel_in_step (self))
    afg_function_panel_show_frame (self->panel,
                                   node == AFG_FLAME_NO_FRAME ? AFG_NODE_NONE : node);
}

static void
on_search_changed (AfgFunctionsPane *self, GtkSearchEntry *entry)
{
  afg_function_panel_set_filter (self->panel, gtk_editable_get_text (GTK_EDITABLE (entry)));
  afg_diff_function_list_set_filter (self->diff_functions, gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The widest name among the table's first rows, in the panel's font. */
static int
names_width (AfgFunctionsPane *self)
{
  AfgFunctionTable *table = afg_function_panel_get_table (self->panel);
  int widest = 0;

  for (guint i = 0; table != NULL && i < MIN (afg_function_table_get_n_functions (table), FIT_ROWS); i++)
    {
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->panel),
                                                                      afg_function_table_get_name (table, i));
      int width;

      pango_layout_get_pixel_size (layout, &width, NULL);
      widest = MAX (widest, width);
    }
  return widest;
}

/* The width the user last dragged the panel to; else one that fits the
 * first rows' names (PANEL_WIDTH at least), up to half the window. */
static int
panel_width (AfgFunctionsPane *self)
{
  GSettings *settings = afg_settings_get ();
  int total = gtk_widget_get_width (GTK_WIDGET (self->paned));
  int kept = settings ? g_settings_get_int (settings, "functions-width") : 0;

  if (kept > 0)
    return CLAMP (kept, 280, MAX (total - 200, 280));
  return CLAMP (names_width (self) + NUMBERS_WIDTH, PANEL_WIDTH, MAX (total / 2, PANEL_WIDTH));
}

/* A drag of the panel's edge is remembered; the window placing it is not. */
static void
on_panel_moved (AfgFunctionsPane *self)
{
  GSettings *settings = afg_settings_get ();
  int width = gtk_widget_get_width (GTK_WIDGET (self->paned)) - gtk_paned_get_position (self->paned);

  if (settings != NULL && panel_shown (self) && width > 0)
    g_settings_set_int (settings, "functions-width", width);
}

static void
place_panel (AfgFunctionsPane *self)
{
  g_signal_handlers_block_by_func (self->paned, on_panel_moved, self);
  gtk_paned_set_position (self->paned,
                          MAX (gtk_widget_get_width (GTK_WIDGET (self->paned)) - panel_width (self), 200));
  g_signal_handlers_unblock_by_func (self->paned, on_panel_moved, self);
}

static void
toggle_functions (GSimpleAction *action, GVariant *param, gpointer data)
{
  AfgFunctionsPane *self = data;
  gboolean show = !panel_shown (self);

  gtk_widget_set_visible (GTK_WIDGET (self), show);
  sync_tree (self);
  if (show)
    place_panel (self);
  highlight_function (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
emit_changed (AfgFunctionsPane *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
connect_panel (AfgFunctionsPane *self)
{
  g_signal_connect_swapped (self->panel, "notify::selected", G_CALLBACK (on_function_picked), self);
  g_signal_connect_swapped (self->panel, "notify::histogram-values", G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (afg_function_panel_get_callers (self->panel), "notify::zoom-root",
                            G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (afg_function_panel_get_callees (self->panel), "notify::zoom-root",
                            G_CALLBACK (emit_changed), self);
  /* Sorting and filtering reorder the rows: "rows" and "top" change. */
  g_signal_connect_swapped (gtk_column_view_get_model (afg_function_panel_get_column_view (self->panel)),
                            "items-changed", G_CALLBACK (emit_changed), self);
}

static void
on_diff_norm_changed (AfgFunctionsPane *self)
{
  sync_diff_scales (self);
  emit_changed (self);
}

static void
connect_window (AfgFunctionsPane *self)
{
  g_signal_connect_swapped (self->flame_view, "notify::zoom-root", G_CALLBACK (on_layout_changed), self);
  g_signal_connect_swapped (self->flame_view, "notify::selected-node", G_CALLBACK (on_frame_selected), self);
  g_signal_connect_swapped (self->flame_view, "node-activated", G_CALLBACK (on_frame_activated), self);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect_swapped (self->paned, "notify::position", G_CALLBACK (on_panel_moved), self);
  /* Goes with whichever of the two goes first. */
  g_signal_connect_object (afg_diff_view_get_actions (self->diff_view), "action-state-changed::norm",
                           G_CALLBACK (on_diff_norm_changed), self, G_CONNECT_SWAPPED);
}

/* The window's widgets may outlive the pane: none calls it afterwards. */
static void
afg_functions_pane_dispose (GObject *object)
{
  AfgFunctionsPane *self = AFG_FUNCTIONS_PANE (object);

  if (self->panel != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->panel, self);
      g_signal_handlers_disconnect_by_data (afg_function_panel_get_callers (self->panel), self);
      g_signal_handlers_disconnect_by_data (gtk_column_view_get_model (afg_function_panel_get_column_view (self->panel)), self);
      g_signal_handlers_disconnect_by_data (afg_function_panel_get_callees (self->panel), self);
    }
  if (self->flame_view != NULL)
    g_signal_handlers_disconnect_by_data (self->flame_view, self);
  if (self->search_entry != NULL)
    g_signal_handlers_disconnect_by_data (self->search_entry, self);
  if (self->paned != NULL)
    g_signal_handlers_disconnect_by_data (self->paned, self);
  g_clear_weak_pointer (&self->paned);
  g_clear_weak_pointer (&self->flame_view);
  g_clear_weak_pointer (&self->search_entry);
  g_clear_weak_pointer (&self->steps_bar);
  self->diff_view = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_FUNCTIONS_PANE);
  g_clear_object (&self->toggle);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (afg_functions_pane_parent_class)->dispose (object);
}

static void
afg_functions_pane_class_init (AfgFunctionsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = afg_functions_pane_dispose;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (AFG_TYPE_FUNCTION_PANEL);
  g_type_ensure (AFG_TYPE_DIFF_FUNCTION_LIST);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-functions-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgFunctionsPane, panel);
  gtk_widget_class_bind_template_child (widget_class, AfgFunctionsPane, diff_functions);
}

static void
afg_functions_pane_init (AfgFunctionsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toggle = g_simple_action_new ("toggle-functions", NULL);
  g_signal_connect (self->toggle, "activate", G_CALLBACK (toggle_functions), self);
  connect_panel (self);
}

void
afg_functions_pane_bind (AfgFunctionsPane *self, AfgSession *session, AfgFlameView *view, AfgDiffView *diff_view,
                         AfgStepsBar *bar, GtkSearchEntry *search)
{
  g_return_if_fail (AFG_IS_FUNCTIONS_PANE (self));
  g_return_if_fail (GTK_IS_PANED (gtk_widget_get_parent (GTK_WIDGET (self))));
  g_return_if_fail (self->session == NULL);

  self->session = g_object_ref (session);
  g_set_weak_pointer (&self->paned, GTK_PANED (gtk_widget_get_parent (GTK_WIDGET (self))));
  g_set_weak_pointer (&self->flame_view, view);
  g_set_weak_pointer (&self->steps_bar, bar);
  g_set_weak_pointer (&self->search_entry, search);
  self->diff_view = diff_view;
  connect_window (self);
}

void
afg_functions_pane_add_actions (AfgFunctionsPane *self, GActionMap *map)
{
  g_return_if_fail (AFG_IS_FUNCTIONS_PANE (self));
  g_action_map_add_action (map, G_ACTION (self->toggle));
}

void
afg_functions_pane_sync (AfgFunctionsPane *self)
{
  g_return_if_fail (AFG_IS_FUNCTIONS_PANE (self));
  sync_tree (self);
  emit_changed (self);
}

/* Not sync_tree(): while a new scope's layout is on its way the graph
 * shows no tree, and the table would lose its pick. */
void
afg_functions_pane_sync_divisor (AfgFunctionsPane *self)
{
  g_return_if_fail (AFG_IS_FUNCTIONS_PANE (self));
  if (panel_shown (self))
    afg_function_panel_set_divisor (self->panel, afg_steps_bar_get_divisor (self->steps_bar));
}

GtkPaned *
afg_functions_pane_get_paned (AfgFunctionsPane *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTIONS_PANE (self), NULL);
  return self->paned;
}

AfgFunctionPanel *
afg_functions_pane_get_panel (AfgFunctionsPane *self)
{
  g_return_val_if_fail (AFG_IS_FUNCTIONS_PANE (self), NULL);
  return self->panel;
}

static char *
uint_text (guint64 value)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
}

/* "CHILDREN ROOT_NS" of a sandwich half: how many distinct callers (or
 * callees) the function has, and its time through them. */
static void
append_half (GString *line, const char *key, AfgFlameView *view)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (view);
  AfgTree *tree = layout ? afg_flame_layout_get_tree (layout) : NULL;
  g_autofree char *value = NULL;

  if (tree != NULL)
    value = g_strdup_printf ("%u %" G_GINT64_FORMAT, afg_tree_get_node (tree, AFG_TREE_ROOT)->n_children,
                             afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  _afg_window_append_state_field (line, key, value);
}

static char *
top_row (AfgFunctionPanel *panel)
{
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (afg_function_panel_get_column_view (panel)));
  g_autoptr(AfgFunctionItem) first = g_list_model_get_n_items (rows) > 0 ? g_list_model_get_item (rows, 0) : NULL;

  return first ? g_strdup (afg_function_item_get_name (first)) : NULL;
}

/* The fields of docs/test-state-line.md from functions to durations. */
void
afg_functions_pane_append_state (AfgFunctionsPane *self, GString *line, gboolean graph)
{
  AfgFunctionPanel *panel = self->panel;
  AfgFunctionTable *table = afg_function_panel_get_table (panel);
  guint picked = afg_function_panel_get_selected (panel);
  gboolean on = graph && panel_shown (self) && table != NULL;
  gboolean diff = graph && panel_shown (self) && afg_diff_function_list_get_functions (self->diff_functions) != NULL;
  g_autofree char *rows = on ? uint_text (afg_function_panel_get_n_shown (panel)) : NULL;
  g_autofree char *top = on ? top_row (panel) : NULL;
  g_autofree char *highlighted = NULL;
  g_autofree char *histogram = NULL;
  guint n_frames = 0;

  if (diff)
    {
      rows = uint_text (afg_diff_function_list_get_n_shown (self->diff_functions));
      top = g_strdup (afg_diff_function_list_get_top (self->diff_functions));
    }
  on = on && picked != AFG_FUNCTION_NONE;
  if (on)
    {
      afg_function_table_get_frames (table, picked, &n_frames);
      highlighted = uint_text (n_frames);
      if (!afg_function_panel_is_busy (panel))
        histogram = uint_text (afg_duration_histogram_get_n_values (afg_function_panel_get_histogram (panel)));
    }
  _afg_window_append_state_field (line, "functions", graph && panel_shown (self) ? "1" : "0");
  _afg_window_append_state_field (line, "rows", rows);
  _afg_window_append_state_field (line, "top", top);
  _afg_window_append_state_field (line, "function", on ? afg_function_table_get_name (table, picked) : NULL);
  _afg_window_append_state_field (line, "highlighted", highlighted);
  append_half (line, "callers", afg_function_panel_get_callers (panel));
  append_half (line, "callees", afg_function_panel_get_callees (panel));
  _afg_window_append_state_field (line, "histogram", histogram);
  _afg_window_append_state_field (line, "durations",
                                  graph && afg_session_get_tree (self->session) != NULL
                                  && afg_tree_has_column (afg_session_get_tree (self->session), AFG_COLUMN_DURATION_MIN) ? "1" : "0");
}

/* The state line's last fields: the kernel leaves of the layout shown
 * (empty in host time and all device tasks' time, which have none) and
 * the Kernels tab's first row while the Functions panel is shown;
 * @shown: the weight of the widths on screen. */
void
afg_functions_pane_append_kernels (AfgFunctionsPane *self, GString *line, gboolean graph, AfgWeight shown)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);
  g_autofree char *leaves = NULL;
  g_autofree char *top = NULL;
  guint n = 0;

  if (graph && layout != NULL && afg_weight_has_kernels (shown))
    {
      afg_flame_layout_get_leaves (layout, &n);
      leaves = g_strdup_printf ("%u", n);
    }
  if (graph && gtk_widget_get_visible (GTK_WIDGET (self->panel)))
    top = afg_kernel_list_get_top (afg_function_panel_get_kernels (self->panel));
  _afg_window_append_state_field (line, "kernels", leaves);
  _afg_window_append_state_field (line, "kernel_top", top);
}
