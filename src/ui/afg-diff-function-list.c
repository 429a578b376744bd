/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-diff-function-list.h"
#include "afg-format.h"

#define NAME_WIDTH 200
#define VALUE_WIDTH 76

struct _AfgDiffFunctionList {
  GtkWidget           parent_instance;

  GtkWidget          *scrolled;
  GtkColumnView      *column_view;
  GtkFilterListModel *filtered;
  GtkStringFilter    *filter;

  AfgDiffShape       *shape;
  AfgDiffFunctions   *functions;
  GHashTable         *index;      /* name → row index + 1 */
  double              scales[2];  /* by AfgDiffSide */
};

G_DEFINE_FINAL_TYPE (AfgDiffFunctionList, afg_diff_function_list, GTK_TYPE_WIDGET)

/* Each column: a value of one side, a change or its share of A. */
typedef enum {
  COLUMN_NAME,
  COLUMN_A,
  COLUMN_B,
  COLUMN_DELTA,
  COLUMN_PERCENT,
} ColumnKind;

typedef struct {
  AfgDiffFunctionList *list;
  ColumnKind           kind;
  gboolean             total;  /* total time, else self time */
} Column;

/* "+25.0%", "−74.0%"; "new" from nothing, "±0%" for nothing to nothing. */
static char *
change_percent (double a, double b)
{
  double percent;

  if (a <= 0)
    return g_strdup (b > 0 ? _("new") : "±0%");
  percent = (b - a) * 100.0 / a;
  return g_strdup_printf ("%s%.1f%%", percent < 0 ? "−" : "+", ABS (percent));
}

/* @side's self (or total) time of @f, times the side's scale. */
static double
scaled (const AfgDiffFunctionList *self, const AfgDiffFunction *f, AfgDiffSide side, gboolean total)
{
  return (double) (total ? f->total_ns : f->self_ns)[side] * self->scales[side];
}

static char *
cell_text (const Column *column, const AfgDiffFunction *f, const char *name)
{
  double a = scaled (column->list, f, AFG_DIFF_SIDE_A, column->total);
  double b = scaled (column->list, f, AFG_DIFF_SIDE_B, column->total);

  switch (column->kind)
    {
    case COLUMN_A: return afg_format_scaled_duration (a);
    case COLUMN_B: return afg_format_scaled_duration (b);
    case COLUMN_DELTA: return afg_format_signed_duration (b - a);
    case COLUMN_PERCENT: return change_percent (a, b);
    case COLUMN_NAME: default: return g_strdup (name);
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, Column *column)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column->kind == COLUMN_NAME ? 0 : 1);
  if (column->kind == COLUMN_NAME)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, Column *column)
{
  AfgDiffFunctionList *self = column->list;
  const char *name = gtk_string_object_get_string (gtk_list_item_get_item (list_item));
  guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->index, name));
  g_autofree char *text = NULL;

  if (row == 0)
    return;
  text = cell_text (column, afg_diff_functions_get (self->functions, row - 1), name);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
  if (column->kind == COLUMN_NAME)
    gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), name);
}

static void
add_column (AfgDiffFunctionList *self, const char *title, ColumnKind kind, gboolean total)
{
  Column *column = g_new (Column, 1);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  *column = (Column) { self, kind, total };
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), column);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), column);
  g_object_set_data_full (G_OBJECT (factory), "column", column, g_free);
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, kind == COLUMN_NAME);
  gtk_column_view_column_set_fixed_width (view_column, kind == COLUMN_NAME ? NAME_WIDTH : VALUE_WIDTH);
  gtk_column_view_append_column (self->column_view, view_column);
}

static void
afg_diff_function_list_dispose (GObject *object)
{
  AfgDiffFunctionList *self = AFG_DIFF_FUNCTION_LIST (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->functions, afg_diff_functions_unref);
  g_clear_pointer (&self->shape, afg_diff_shape_unref);
  g_clear_pointer (&self->index, g_hash_table_unref);
  G_OBJECT_CLASS (afg_diff_function_list_parent_class)->dispose (object);
}

static void
afg_diff_function_list_class_init (AfgDiffFunctionListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_diff_function_list_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "difffunctionlist");
}

static void
afg_diff_function_list_init (AfgDiffFunctionList *self)
{
  self->index = g_hash_table_new (g_str_hash, g_str_equal);
  self->scales[AFG_DIFF_SIDE_A] = self->scales[AFG_DIFF_SIDE_B] = 1.0;
  self->filter = gtk_string_filter_new (gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->filter, TRUE);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (g_object_ref (self->filter)));
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (
    gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->filtered))))));
  add_column (self, _("Function"), COLUMN_NAME, FALSE);
  add_column (self, _("Self A"), COLUMN_A, FALSE);
  add_column (self, _("Self B"), COLUMN_B, FALSE);
  add_column (self, _("Δ Self"), COLUMN_DELTA, FALSE);
  /* xgettext:no-c-format */
  add_column (self, _("Δ% Self"), COLUMN_PERCENT, FALSE);
  add_column (self, _("Total A"), COLUMN_A, TRUE);
  add_column (self, _("Total B"), COLUMN_B, TRUE);
  add_column (self, _("Δ Total"), COLUMN_DELTA, TRUE);
  /* xgettext:no-c-format */
  add_column (self, _("Δ% Total"), COLUMN_PERCENT, TRUE);
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

/* |Δ self| of the scaled times, largest first, then the name's bytes. */
static int
compare_rows (gconstpointer x, gconstpointer y, gpointer data)
{
  AfgDiffFunctionList *self = data;
  guint i = *(const guint *) x, j = *(const guint *) y;
  const AfgDiffFunction *f = afg_diff_functions_get (self->functions, i);
  const AfgDiffFunction *g = afg_diff_functions_get (self->functions, j);
  double df = ABS (scaled (self, f, AFG_DIFF_SIDE_B, FALSE) - scaled (self, f, AFG_DIFF_SIDE_A, FALSE));
  double dg = ABS (scaled (self, g, AFG_DIFF_SIDE_B, FALSE) - scaled (self, g, AFG_DIFF_SIDE_A, FALSE));

  if (df != dg)
    return df < dg ? 1 : -1;
  return strcmp (afg_diff_functions_get_name (self->functions, i), afg_diff_functions_get_name (self->functions, j));
}

/* The rows again, in the order of the scaled times. */
static void
refill (AfgDiffFunctionList *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = afg_diff_functions_get_n (self->functions);
  g_autofree guint *order = g_new (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_rows, self);
  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, afg_diff_functions_get_name (self->functions, order[i]));
  gtk_filter_list_model_set_model (self->filtered, G_LIST_MODEL (names));
}

void
afg_diff_function_list_set_shape (AfgDiffFunctionList *self, AfgDiffShape *shape)
{
  g_return_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self));

  if (shape == self->shape)
    return;
  gtk_filter_list_model_set_model (self->filtered, NULL);
  g_hash_table_remove_all (self->index);
  g_clear_pointer (&self->functions, afg_diff_functions_unref);
  g_clear_pointer (&self->shape, afg_diff_shape_unref);
  if (shape == NULL)
    return;
  self->shape = afg_diff_shape_ref (shape);
  self->functions = afg_diff_functions_new (shape);
  for (guint i = 0; i < afg_diff_functions_get_n (self->functions); i++)
    g_hash_table_insert (self->index, (gpointer) afg_diff_functions_get_name (self->functions, i),
                         GUINT_TO_POINTER (i + 1));
  refill (self);
}

void
afg_diff_function_list_set_scales (AfgDiffFunctionList *self, double a_scale, double b_scale)
{
  g_return_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self));

  if (a_scale == self->scales[AFG_DIFF_SIDE_A] && b_scale == self->scales[AFG_DIFF_SIDE_B])
    return;
  self->scales[AFG_DIFF_SIDE_A] = a_scale;
  self->scales[AFG_DIFF_SIDE_B] = b_scale;
  if (self->functions != NULL)
    refill (self);
}

AfgDiffFunctions *
afg_diff_function_list_get_functions (AfgDiffFunctionList *self)
{
  g_return_val_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self), NULL);

  return self->functions;
}

void
afg_diff_function_list_set_filter (AfgDiffFunctionList *self, const char *text)
{
  g_return_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self));

  gtk_string_filter_set_search (self->filter, text != NULL && text[0] != '\0' ? text : NULL);
}

guint
afg_diff_function_list_get_n_shown (AfgDiffFunctionList *self)
{
  g_return_val_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

const char *
afg_diff_function_list_get_top (AfgDiffFunctionList *self)
{
  g_autoptr(GtkStringObject) first = NULL;

  g_return_val_if_fail (AFG_IS_DIFF_FUNCTION_LIST (self), NULL);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 0)
    return NULL;
  first = g_list_model_get_item (G_LIST_MODEL (self->filtered), 0);
  /* The document's copy of the name: the row object may go. */
  return afg_diff_functions_get_name (self->functions,
                                      GPOINTER_TO_UINT (g_hash_table_lookup (self->index,
                                                                             gtk_string_object_get_string (first))) - 1);
}
