/* SPDX-License-Identifier: MIT */
/* A job's ranks beside the flame graph, each with the figures of
 * the job's index page (afg-rank-summary.h): total, mean step time, a bar
 * per step and the straggler said in words. */
#define G_LOG_DOMAIN "afg-ranks"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-job-collectives.h"
#include "afg-rank-item.h"
#include "afg-rank-sidebar.h"

#define BARS_HEIGHT 14
#define NO_SELECTION (-2)

struct _AfgRankSidebar {
  GtkBox              parent_instance;

  GtkLabel           *progress_label;
  GtkWidget          *cancel_button;
  GtkListView        *list_view;
  GtkMenuButton      *compare_button;
  GtkButton          *explain_button;

  AfgJobLoad         *load;
  GListStore         *items;       /* AfgRankItem: "All ranks", then each rank */
  GtkSingleSelection *selection;
  guint               n_read;
  AfgJobFigures      *figures;     /* of the n_read ranks read */
  char               *why;         /* the straggler's explanation, or NULL */
  char               *verdict;     /* the job's, as index.html says it */
  guint              *read_index;  /* per rank: its place among them */
  gint64              max_step_ns;
  int                 straggler;   /* job index, or -1 */
  int                 reference;   /* the rank to compare it with: job index, or -1 */
  guint               selecting : 1;
};

G_DEFINE_FINAL_TYPE (AfgRankSidebar, afg_rank_sidebar, GTK_TYPE_BOX)

enum {
  RANK_SELECTED,
  RANK_RESELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Row widgets, found again by name at bind time. */
typedef struct {
  GtkLabel       *title;
  GtkLabel       *total;
  GtkLabel       *detail;
  GtkWidget      *bars;
  GtkProgressBar *progress;
} Row;

static char *
rank_title (const AfgRankSummary *summary)
{
  return summary->rank < 0 ? g_strdup (_("Rank unknown")) : g_strdup_printf (_("Rank %d"), summary->rank);
}

static char *
rank_detail (const AfgRankSummary *summary, const AfgRankView *view)
{
  g_autofree char *wait = NULL;

  switch (view->state)
    {
    case AFG_RANK_STATE_WAITING:
      return g_strdup (_("Waiting"));
    case AFG_RANK_STATE_READING:
      return g_strdup (_("Reading…"));
    case AFG_RANK_STATE_SUMMING:
      return g_strdup (_("Summing up steps…"));
    case AFG_RANK_STATE_CANCELLED:
      return g_strdup (_("Cancelled"));
    case AFG_RANK_STATE_FAILED:
      return g_strdup (summary->error);
    case AFG_RANK_STATE_DONE:
    default:
      break;
    }
  if (view->straggler)
    return g_strdup_printf (_("Straggler: %s"), view->why);
  wait = afg_format_duration (view->wait_ns);
  return g_strdup_printf (_("Waited %s in collectives, came last at %u of %u"), wait, view->last_arrivals,
                          view->took_part);
}

static gboolean
is_read (AfgRankState state)
{
  return state == AFG_RANK_STATE_DONE || state == AFG_RANK_STATE_FAILED;
}

/* Stacks a step's device split from the bottom: compute, communication,
 * other in the step strip's colours, free in @fg's. */
static void
draw_split (cairo_t *cr, const AfgDeviceSplit *split, double x, double w, int height, gint64 scale,
            const GdkRGBA *fg)
{
  const GdkRGBA colors[] = {
    { 0.200, 0.820, 0.478, 1.0 }, { 0.569, 0.255, 0.675, 1.0 }, { 0.604, 0.600, 0.588, 1.0 },
    { fg->red, fg->green, fg->blue, 0.25 },
  };
  gint64 parts[] = { split->compute_ns, split->comm_ns, split->other_ns, split->free_ns };
  double y = height;

  for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
    {
      double h = height * (double) parts[k] / scale;

      gdk_cairo_set_source_rgba (cr, &colors[k]);
      cairo_rectangle (cr, x, y - h, w, h);
      cairo_fill (cr);
      y -= h;
    }
}

/* One bar per step, all ranks on the scale of the job's longest step:
 * the step's device split stacked when the rank has a device timeline,
 * else its host time. */
static void
draw_bars (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  AfgRankItem *item = g_object_get_data (G_OBJECT (area), "item");
  const AfgRankView *view;
  const AfgRankSummary *summary;
  GdkRGBA color;
  double slot;

  if (item == NULL || afg_rank_item_is_all (item))
    return;
  view = afg_rank_item_get_view (item);
  summary = afg_rank_item_get_summary (item);
  if (view->state != AFG_RANK_STATE_DONE || summary->steps->len == 0 || view->max_step_ns <= 0)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &color);
  if (view->straggler)
    gdk_rgba_parse (&color, "#c01c28");
  cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.6);
  slot = (double) width / summary->steps->len;
  for (guint i = 0; i < summary->steps->len; i++)
    {
      const AfgRankStep *step = &g_array_index (summary->steps, AfgRankStep, i);
      double h = MAX (1.0, height * (double) step->host_ns / view->max_step_ns);
      double w = MAX (1.0, slot - (slot > 3 ? 1 : 0));

      if (summary->has_device)
        draw_split (cr, &step->device, i * slot, w, height, view->max_step_ns, &color);
      else
        cairo_rectangle (cr, i * slot, height - h, w, h);
    }
  cairo_fill (cr);
}

/* The detail and, once read, the device split summed over the steps. */
static char *
rank_tooltip (const AfgRankSummary *summary, const AfgRankView *view, const char *detail)
{
  const AfgDeviceSplit *d = &summary->device;
  gint64 window = d->compute_ns + d->comm_ns + d->other_ns + d->free_ns;
  g_autofree char *split = NULL;

  if (view->state != AFG_RANK_STATE_DONE || !summary->has_device || window <= 0)
    return g_strdup (detail);
  split = afg_device_split_describe (d, window, TRUE);
  return g_strdup_printf (_("%s\nDevice: %s"), detail, split);
}

static void
show_all_entry (AfgRankSidebar *self, Row *row)
{
  g_autofree char *read = g_strdup_printf (_("%u of %u ranks read"), self->n_read,
                                           self->load ? afg_job_load_get_n_ranks (self->load) : 0);
  /* The job's verdict beside it on the one line every row has (the rows
   * keep their height as ranks are read), whole in the tooltip. */
  g_autofree char *detail = self->verdict != NULL ? g_strdup_printf ("%s · %s", read, self->verdict)
                                                  : g_strdup (read);
  g_autofree char *tooltip = self->verdict != NULL ? g_strdup_printf ("%s\n%s", read, self->verdict)
                                                   : g_strdup (read);

  gtk_label_set_text (row->title, _("All ranks"));
  gtk_label_set_text (row->total, "");
  gtk_label_set_text (row->detail, detail);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->detail), tooltip);
  gtk_widget_set_visible (row->bars, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (row->progress), FALSE);
}

static void
update_row (AfgRankItem *item, GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  Row *row = g_object_get_data (G_OBJECT (child), "row");
  AfgRankSidebar *self = g_object_get_data (G_OBJECT (child), "sidebar");
  const AfgRankSummary *summary = afg_rank_item_get_summary (item);
  const AfgRankView *view = afg_rank_item_get_view (item);
  g_autofree char *title = NULL;
  g_autofree char *total = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *tooltip = NULL;

  if (afg_rank_item_is_all (item))
    {
      show_all_entry (self, row);
      return;
    }
  title = rank_title (summary);
  total = view->state == AFG_RANK_STATE_DONE ? afg_format_duration (summary->host_ns) : g_strdup ("");
  detail = rank_detail (summary, view);
  gtk_label_set_text (row->title, title);
  gtk_label_set_text (row->total, total);
  gtk_label_set_text (row->detail, detail);
  tooltip = rank_tooltip (summary, view, detail);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->detail), tooltip);
  if (view->straggler || view->state == AFG_RANK_STATE_FAILED)
    gtk_widget_add_css_class (GTK_WIDGET (row->detail), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row->detail), "error");
  gtk_widget_set_visible (row->bars, view->state == AFG_RANK_STATE_DONE && summary->steps->len > 0);
  gtk_widget_queue_draw (row->bars);
  gtk_widget_set_visible (GTK_WIDGET (row->progress), !is_read (view->state) && view->state != AFG_RANK_STATE_CANCELLED);
  gtk_progress_bar_set_fraction (row->progress, view->state == AFG_RANK_STATE_SUMMING ? 1.0 : view->fraction);
}

static GtkLabel *
row_label (GtkWidget *box, gboolean caption)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (caption)
    gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);
  return GTK_LABEL (label);
}

static AfgRankItem *
selected_item (AfgRankSidebar *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

/* A right click picks the rank and opens "Compare with Rank…" for it. */
static void
on_row_pressed (GtkGestureClick *gesture, int n_press, double x, double y, GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  AfgRankSidebar *self = g_object_get_data (G_OBJECT (child), "sidebar");
  guint position = gtk_list_item_get_position (list_item);

  if (position == GTK_INVALID_LIST_POSITION || position == 0)
    return;
  gtk_single_selection_set_selected (self->selection, position);
  gtk_menu_button_popup (self->compare_button);
}

/* A click on a row: a row not selected is selected (::rank-selected);
 * the selected one again is ::rank-reselected, which GtkSingleSelection
 * alone would not tell. */
static void
pick_row (AfgRankSidebar *self, guint position)
{
  if (position != gtk_single_selection_get_selected (self->selection))
    gtk_single_selection_set_selected (self->selection, position);
  else if (selected_item (self) != NULL)
    g_signal_emit (self, signals[RANK_RESELECTED], 0, afg_rank_sidebar_get_selected (self));
}

/* Before the list's own gesture, which selects: the row's state is
 * still the one before the click. */
static void
on_row_clicked (GtkGestureClick *gesture, int n_press, double x, double y, GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  guint position = gtk_list_item_get_position (list_item);

  if (position != GTK_INVALID_LIST_POSITION && n_press == 1)
    pick_row (g_object_get_data (G_OBJECT (child), "sidebar"), position);
}

/* "sidebar.pick u": what a click on row u does (the test control's
 * select command takes it). */
static void
pick_action (GtkWidget *widget, const char *name, GVariant *param)
{
  pick_row (AFG_RANK_SIDEBAR (widget), g_variant_get_uint32 (param));
}

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *list_item, AfgRankSidebar *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkGesture *secondary = gtk_gesture_click_new ();
  GtkGesture *primary = gtk_gesture_click_new ();
  Row *row = g_new0 (Row, 1);

  g_object_set (box, "margin-top", 6, "margin-bottom", 6, "margin-start", 6, "margin-end", 6, NULL);
  gtk_box_append (GTK_BOX (box), top);
  row->title = row_label (top, FALSE);
  gtk_widget_set_hexpand (GTK_WIDGET (row->title), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (row->title), "heading");
  row->total = row_label (top, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (row->total), "numeric");
  row->detail = row_label (box, TRUE);
  row->bars = gtk_drawing_area_new ();
  gtk_widget_set_size_request (row->bars, -1, BARS_HEIGHT);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (row->bars), draw_bars, NULL, NULL);
  gtk_box_append (GTK_BOX (box), row->bars);
  row->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->progress));
  g_object_set_data_full (G_OBJECT (box), "row", row, g_free);
  g_object_set_data (G_OBJECT (box), "sidebar", self);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect (secondary, "pressed", G_CALLBACK (on_row_pressed), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (secondary));
  g_signal_connect (primary, "pressed", G_CALLBACK (on_row_clicked), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (primary));
  gtk_list_item_set_child (list_item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *list_item, AfgRankSidebar *self)
{
  AfgRankItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  Row *row = g_object_get_data (G_OBJECT (child), "row");

  g_object_set_data (G_OBJECT (row->bars), "item", item);
  g_signal_connect_object (item, "changed", G_CALLBACK (update_row), list_item, 0);
  update_row (item, list_item);
}

static void
unbind_row (GtkSignalListItemFactory *factory, GtkListItem *list_item, AfgRankSidebar *self)
{
  AfgRankItem *item = gtk_list_item_get_item (list_item);
  Row *row = g_object_get_data (G_OBJECT (gtk_list_item_get_child (list_item)), "row");

  g_object_set_data (G_OBJECT (row->bars), "item", NULL);
  g_signal_handlers_disconnect_by_func (item, update_row, list_item);
}

/* "Compare with rank…": every other rank, the selected one as A. */
static void
update_compare_menu (AfgRankSidebar *self)
{
  AfgRankItem *picked = selected_item (self);
  g_autoptr(GMenu) menu = g_menu_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  for (guint i = 1; picked != NULL && !afg_rank_item_is_all (picked) && i < n; i++)
    {
      g_autoptr(AfgRankItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);
      g_autofree char *title = NULL;
      g_autofree char *action = NULL;

      if (item == picked)
        continue;
      title = rank_title (afg_rank_item_get_summary (item));
      action = g_strdup_printf ("win.compare-rank(%u)", afg_rank_item_get_index (item));
      g_menu_append (menu, title, action);
    }
  gtk_menu_button_set_menu_model (self->compare_button, G_MENU_MODEL (menu));
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), g_menu_model_get_n_items (G_MENU_MODEL (menu)) > 0);
}

static void
on_selection_changed (AfgRankSidebar *self, GParamSpec *pspec, GtkSingleSelection *selection)
{
  update_compare_menu (self);
  if (!self->selecting && selected_item (self) != NULL)
    g_signal_emit (self, signals[RANK_SELECTED], 0, afg_rank_sidebar_get_selected (self));
}

static void
afg_rank_sidebar_dispose (GObject *object)
{
  AfgRankSidebar *self = AFG_RANK_SIDEBAR (object);

  g_clear_pointer (&self->load, afg_job_load_unref);
  g_clear_pointer (&self->figures, afg_job_figures_free);
  g_clear_pointer (&self->why, g_free);
  g_clear_pointer (&self->verdict, g_free);
  g_clear_pointer (&self->read_index, g_free);
  G_OBJECT_CLASS (afg_rank_sidebar_parent_class)->dispose (object);
}

static void
afg_rank_sidebar_finalize (GObject *object)
{
  AfgRankSidebar *self = AFG_RANK_SIDEBAR (object);

  g_clear_object (&self->items);
  G_OBJECT_CLASS (afg_rank_sidebar_parent_class)->finalize (object);
}

static void
afg_rank_sidebar_class_init (AfgRankSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = afg_rank_sidebar_dispose;
  object_class->finalize = afg_rank_sidebar_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "ranksidebar");
  signals[RANK_SELECTED] = g_signal_new ("rank-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /* The rank selected, clicked again. */
  signals[RANK_RESELECTED] = g_signal_new ("rank-reselected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "sidebar.pick", "u", pick_action);
}

static GtkWidget *
make_header (AfgRankSidebar *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Ranks"));

  g_object_set (header, "margin-top", 6, "margin-bottom", 6, "margin-start", 12, "margin-end", 6, NULL);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (header), title);
  self->progress_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->progress_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->progress_label), "caption");
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress_label), TRUE);
  gtk_label_set_xalign (self->progress_label, 0);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->progress_label));
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->cancel_button), "win.cancel-ranks");
  gtk_widget_set_tooltip_text (self->cancel_button, _("Stop reading the ranks not read yet"));
  gtk_box_append (GTK_BOX (header), self->cancel_button);
  return header;
}

static GtkWidget *
make_list (AfgRankSidebar *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  self->items = g_list_store_new (AFG_TYPE_RANK_ITEM);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->items)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (on_selection_changed), self);
  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (self->selection), factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "navigation-sidebar");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list_view));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

/* The button says which two ranks it compares. */
static void
update_explain_button (AfgRankSidebar *self)
{
  AfgRankSummary * const *summaries = self->load ? afg_job_load_get_summaries (self->load) : NULL;
  g_autofree char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->explain_button), self->straggler >= 0 && self->reference >= 0);
  if (self->straggler < 0 || self->reference < 0)
    return;
  label = g_strdup_printf (_("Explain the Straggler: Rank %d vs %d"), summaries[self->straggler]->rank,
                           summaries[self->reference]->rank);
  gtk_button_set_label (self->explain_button, label);
}

static void
afg_rank_sidebar_init (AfgRankSidebar *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, -1);
  gtk_box_append (GTK_BOX (self), make_header (self));
  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (self), make_list (self));
  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  self->compare_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_label (self->compare_button, _("Compare with Rank…"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->compare_button), _("Show the difference between the selected rank and another"));
  g_object_set (self->compare_button, "margin-top", 6, "margin-bottom", 6, "margin-start", 6, "margin-end", 6, NULL);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->compare_button));
  update_compare_menu (self);
  /* In the compute weight, as the issue of the straggler is its compute. */
  self->explain_button = GTK_BUTTON (gtk_button_new ());
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->explain_button), "win.explain-straggler");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->explain_button),
                               _("Show the straggler's difference from the rank nearest the median compute time, "
                                 "in NPU compute time, and when its steps start"));
  g_object_set (self->explain_button, "margin-bottom", 6, "margin-start", 6, "margin-end", 6, NULL);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->explain_button));
  self->straggler = self->reference = -1;
  update_explain_button (self);
}

GtkWidget *
afg_rank_sidebar_new (void)
{
  return g_object_new (AFG_TYPE_RANK_SIDEBAR, NULL);
}

void
afg_rank_sidebar_set_job (AfgRankSidebar *self, AfgJobLoad *load)
{
  AfgRankSummary * const *summaries;
  g_autoptr(AfgRankItem) all = NULL;

  g_return_if_fail (AFG_IS_RANK_SIDEBAR (self));

  self->selecting = TRUE;
  g_list_store_remove_all (self->items);
  self->selecting = FALSE;
  g_clear_pointer (&self->load, afg_job_load_unref);
  g_clear_pointer (&self->figures, afg_job_figures_free);
  g_clear_pointer (&self->why, g_free);
  g_clear_pointer (&self->verdict, g_free);
  self->straggler = self->reference = -1;
  update_explain_button (self);
  g_clear_pointer (&self->read_index, g_free);
  self->n_read = 0;
  if (load == NULL)
    return;
  self->load = afg_job_load_ref (load);
  self->read_index = g_new0 (guint, MAX (afg_job_load_get_n_ranks (load), 1));
  summaries = afg_job_load_get_summaries (load);
  all = afg_rank_item_new (0, NULL);
  g_list_store_append (self->items, all);
  for (guint i = 0; i < afg_job_load_get_n_ranks (load); i++)
    {
      g_autoptr(AfgRankItem) item = afg_rank_item_new (i, summaries[i]);

      g_list_store_append (self->items, item);
    }
  afg_rank_sidebar_refresh (self);
}

/* The job index of the rank read @judged_index-th, or -1. */
static int
job_index (AfgRankSidebar *self, const AfgRankState *states, int judged_index)
{
  for (guint i = 0; judged_index >= 0 && i < afg_job_load_get_n_ranks (self->load); i++)
    if (is_read (states[i]) && self->read_index[i] == (guint) judged_index)
      return (int) i;
  return -1;
}

/* The straggler and the rank "Explain the Straggler" compares it with. */
static void
pick_explained (AfgRankSidebar *self, const AfgRankState *states, AfgRankSummary * const *read, guint n_read)
{
  int straggler = self->figures->collectives->straggler;

  self->straggler = job_index (self, states, straggler);
  self->reference = straggler < 0 ? -1 : job_index (self, states, afg_job_reference_rank (read, n_read, straggler));
}

/* The figures of the ranks read so far, as index.html judges a whole job;
 * judged again only when another rank is read. */
static void
judge_read (AfgRankSidebar *self, const AfgRankState *states)
{
  guint n = afg_job_load_get_n_ranks (self->load), n_read = 0;
  AfgRankSummary * const *summaries = afg_job_load_get_summaries (self->load);
  g_autofree AfgRankSummary **read = g_new0 (AfgRankSummary *, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    n_read += is_read (states[i]);
  if (self->figures != NULL && n_read == self->n_read)
    return;
  n_read = 0;
  self->max_step_ns = 0;
  for (guint i = 0; i < n; i++)
    {
      if (!is_read (states[i]))
        continue;
      self->read_index[i] = n_read;
      read[n_read++] = summaries[i];
      for (guint s = 0; s < summaries[i]->steps->len; s++)
        {
          const AfgRankStep *step = &g_array_index (summaries[i]->steps, AfgRankStep, s);
          const AfgDeviceSplit *d = &step->device;

          /* What the bars draw: the step's window split, or its host time. */
          self->max_step_ns = MAX (self->max_step_ns, summaries[i]->has_device
                                                      ? d->compute_ns + d->comm_ns + d->other_ns + d->free_ns
                                                      : step->host_ns);
        }
    }
  self->n_read = n_read;
  g_clear_pointer (&self->figures, afg_job_figures_free);
  self->figures = afg_job_figures_new (read, n_read);
  g_free (self->why);
  self->why = afg_job_collectives_explain (self->figures->collectives, read);
  g_free (self->verdict);
  self->verdict = afg_job_collectives_verdict (self->figures->collectives, read);
  pick_explained (self, states, read, n_read);
}

static void
view_rank (AfgRankView *view, const AfgRankSummary *summary, AfgRankState state, guint64 rows,
           guint64 total, const AfgJobFigures *figures, const char *why, guint judged_index, gint64 max_step)
{
  memset (view, 0, sizeof *view);
  view->state = state;
  view->fraction = total > 0 ? MIN (1.0, (double) rows / total) : 0;
  view->max_step_ns = max_step;
  if (state != AFG_RANK_STATE_DONE)
    return;
  view->wait_ns = figures->collectives->wait_ns[judged_index];
  view->last_arrivals = figures->collectives->last_arrivals[judged_index];
  view->took_part = figures->collectives->took_part[judged_index];
  view->straggler = figures->collectives->straggler == (int) judged_index;
  if (view->straggler)
    g_strlcpy (view->why, why, sizeof view->why);
}

static void
refresh_header (AfgRankSidebar *self, guint n, gboolean running)
{
  g_autofree char *text = g_strdup_printf (_("%u of %u read"), self->n_read, n);
  g_autoptr(AfgRankItem) all = g_list_model_get_item (G_LIST_MODEL (self->items), 0);
  AfgRankView view = { 0 };

  gtk_label_set_text (self->progress_label, text);
  gtk_widget_set_visible (self->cancel_button, running);
  memset (&view, 0, sizeof view);
  view.state = running ? AFG_RANK_STATE_READING : AFG_RANK_STATE_DONE;
  view.fraction = n > 0 ? (double) self->n_read / n : 0;
  afg_rank_item_set_view (all, &view);
}

void
afg_rank_sidebar_refresh (AfgRankSidebar *self)
{
  guint n;
  g_autofree AfgRankState *states = NULL;
  g_autofree guint64 *rows = NULL;
  g_autofree guint64 *totals = NULL;
  gboolean running = FALSE;

  g_return_if_fail (AFG_IS_RANK_SIDEBAR (self));

  if (self->load == NULL)
    return;
  n = afg_job_load_get_n_ranks (self->load);
  states = g_new0 (AfgRankState, MAX (n, 1));
  rows = g_new0 (guint64, MAX (n, 1));
  totals = g_new0 (guint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      states[i] = afg_job_load_get_state (self->load, i, &rows[i], &totals[i]);
      running |= states[i] < AFG_RANK_STATE_DONE;
    }
  judge_read (self, states);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AfgRankItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i + 1);
      AfgRankView view;

      view_rank (&view, afg_rank_item_get_summary (item), states[i], rows[i], totals[i],
                 self->figures, self->why, self->read_index[i], self->max_step_ns);
      afg_rank_item_set_view (item, &view);
    }
  refresh_header (self, n, running);
  update_explain_button (self);
}

void
afg_rank_sidebar_select (AfgRankSidebar *self, int index)
{
  g_return_if_fail (AFG_IS_RANK_SIDEBAR (self));

  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, index == AFG_RANK_SIDEBAR_ALL ? 0 : (guint) index + 1);
  self->selecting = FALSE;
}

const char *
afg_rank_sidebar_get_verdict (AfgRankSidebar *self)
{
  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), NULL);
  return self->verdict;
}

gboolean
afg_rank_sidebar_get_explained (AfgRankSidebar *self, int *straggler, int *reference)
{
  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), FALSE);

  *straggler = self->straggler;
  *reference = self->reference;
  return self->straggler >= 0 && self->reference >= 0;
}

int
afg_rank_sidebar_get_selected (AfgRankSidebar *self)
{
  AfgRankItem *item;

  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), NO_SELECTION);

  item = selected_item (self);
  if (item == NULL)
    return NO_SELECTION;
  return afg_rank_item_is_all (item) ? AFG_RANK_SIDEBAR_ALL : (int) afg_rank_item_get_index (item);
}

guint
afg_rank_sidebar_get_n_read (AfgRankSidebar *self)
{
  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), 0);

  return self->n_read;
}

guint
afg_rank_sidebar_get_n_cancelled (AfgRankSidebar *self)
{
  guint n, cancelled = 0;

  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), 0);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(AfgRankItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      cancelled += afg_rank_item_get_view (item)->state == AFG_RANK_STATE_CANCELLED;
    }
  return cancelled;
}

char *
afg_rank_sidebar_get_stragglers (AfgRankSidebar *self)
{
  g_autoptr(GString) ranks = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(AfgRankItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      if (afg_rank_item_get_view (item)->straggler)
        g_string_append_printf (ranks, "%s%d", ranks->len > 0 ? "," : "", afg_rank_item_get_summary (item)->rank);
    }
  return g_string_free (g_steal_pointer (&ranks), FALSE);
}

char *
afg_rank_sidebar_get_device_bars (AfgRankSidebar *self)
{
  AfgRankItem *item;
  const AfgRankSummary *summary;
  GString *bars;

  g_return_val_if_fail (AFG_IS_RANK_SIDEBAR (self), NULL);

  item = selected_item (self);
  if (item == NULL || afg_rank_item_is_all (item) || afg_rank_item_get_view (item)->state != AFG_RANK_STATE_DONE)
    return NULL;
  summary = afg_rank_item_get_summary (item);
  if (!summary->has_device)
    return NULL;
  bars = g_string_new (NULL);
  for (guint i = 0; i < summary->steps->len; i++)
    {
      const AfgDeviceSplit *d = &g_array_index (summary->steps, AfgRankStep, i).device;

      g_string_append_printf (bars, "%s%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                              i > 0 ? "," : "", d->compute_ns, d->comm_ns, d->other_ns, d->free_ns);
    }
  return g_string_free (bars, FALSE);
}
