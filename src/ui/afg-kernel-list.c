/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-kernel-list.h"
#include "afg-kernel-rows.h"
#include "afg-task-kinds.h"

struct _AfgKernelList {
  GtkWidget  parent_instance;

  GtkWidget *scrolled;
  GtkGrid   *grid;
  AfgTree   *tree;
  GArray    *rows;  /* AfgKernelRow */
  AfgWeight  weight;
};

G_DEFINE_FINAL_TYPE (AfgKernelList, afg_kernel_list, GTK_TYPE_WIDGET)

enum { COL_NAME, COL_KIND, COL_COUNT, COL_NS, COL_EXPOSED };

static void
put (AfgKernelList *self, guint column, guint row, const char *text, gboolean heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column <= COL_KIND ? 0 : 1);
  if (column == COL_NAME)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_tooltip_text (label, text);
    }
  if (heading)
    gtk_widget_add_css_class (label, "heading");
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (self->grid, label, column, row, 1, 1);
}

static void
put_row (AfgKernelList *self, guint row, const AfgKernelRow *k)
{
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, k->count);
  g_autofree char *ns = afg_format_duration (k->ns);
  g_autofree char *exposed = afg_format_duration (k->exposed_ns);

  put (self, COL_NAME, row, afg_document_get_string (afg_tree_get_document (self->tree), k->name), FALSE);
  put (self, COL_KIND, row, k->kind == AFG_TASK_KIND_COMPUTE ? _("compute") : _("communication"), FALSE);
  put (self, COL_COUNT, row, count, FALSE);
  put (self, COL_NS, row, ns, FALSE);
  put (self, COL_EXPOSED, row, exposed, FALSE);
}

static void
clear_grid (AfgKernelList *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
}

static void
rebuild (AfgKernelList *self)
{
  g_clear_pointer (&self->rows, g_array_unref);
  clear_grid (self);
  if (self->tree != NULL)
    self->rows = afg_kernel_rows_new (self->tree, self->weight);
  if (self->rows == NULL || self->rows->len == 0)
    {
      put (self, COL_NAME, 0, self->tree != NULL && afg_tree_has_column (self->tree, AFG_COLUMN_NPU_TOTAL_NS)
                                ? _("No kernel weighs anything in this weight")
                                : _("No device kernels: this tree has no NPU data"), FALSE);
      return;
    }
  put (self, COL_NAME, 0, _("Kernel"), TRUE);
  put (self, COL_KIND, 0, _("Kind"), TRUE);
  put (self, COL_COUNT, 0, _("Count"), TRUE);
  put (self, COL_NS, 0, _("Time"), TRUE);
  put (self, COL_EXPOSED, 0, _("Exposed"), TRUE);
  for (guint i = 0; i < self->rows->len; i++)
    put_row (self, i + 1, &g_array_index (self->rows, AfgKernelRow, i));
}

static void
afg_kernel_list_dispose (GObject *object)
{
  AfgKernelList *self = AFG_KERNEL_LIST (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->tree, afg_tree_unref);
  G_OBJECT_CLASS (afg_kernel_list_parent_class)->dispose (object);
}

static void
afg_kernel_list_class_init (AfgKernelListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_kernel_list_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
afg_kernel_list_init (AfgKernelList *self)
{
  self->weight = AFG_WEIGHT_COMPUTE;
  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->grid, 12);
  gtk_grid_set_row_spacing (self->grid, 2);
  gtk_widget_set_margin_start (GTK_WIDGET (self->grid), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->grid), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->grid), 4);
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->grid));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  rebuild (self);
}

GtkWidget *
afg_kernel_list_new (void)
{
  return g_object_new (AFG_TYPE_KERNEL_LIST, NULL);
}

void
afg_kernel_list_set_tree (AfgKernelList *self, AfgTree *tree)
{
  g_return_if_fail (AFG_IS_KERNEL_LIST (self));

  if (tree == self->tree)
    return;
  g_clear_pointer (&self->tree, afg_tree_unref);
  self->tree = tree ? afg_tree_ref (tree) : NULL;
  rebuild (self);
}

void
afg_kernel_list_set_weight (AfgKernelList *self, AfgWeight weight)
{
  g_return_if_fail (AFG_IS_KERNEL_LIST (self));

  if (weight == self->weight)
    return;
  self->weight = weight;
  rebuild (self);
}

char *
afg_kernel_list_get_top (AfgKernelList *self)
{
  const AfgKernelRow *k;

  g_return_val_if_fail (AFG_IS_KERNEL_LIST (self), NULL);

  if (self->rows == NULL || self->rows->len == 0)
    return NULL;
  k = &g_array_index (self->rows, AfgKernelRow, 0);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " [%s] %s", k->count, afg_task_kind_to_string (k->kind),
                          afg_document_get_string (afg_tree_get_document (self->tree), k->name));
}
