/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-start-page"

#include "config.h"

#include "afg-start-page.h"

#define N_RECENT 5
/* Only what this app loaded as a profile: GTK's file chooser adds every
 * file it saves (an exported page) to the same recent list. */
#define RECENT_GROUP "ascend-pytorch-profiler"

struct _AfgStartPage {
  GtkBox      parent_instance;

  /* Template children */
  GtkWidget  *recent_heading;
  GtkListBox *recent_list;

  guint       n_recent;
};

G_DEFINE_FINAL_TYPE (AfgStartPage, afg_start_page, GTK_TYPE_BOX)

enum {
  SIGNAL_OPEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
on_recent_activated (AfgStartPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  g_signal_emit (self, signals[SIGNAL_OPEN], 0, g_object_get_data (G_OBJECT (row), "file"));
}

static GtkWidget *
recent_row_new (GtkRecentInfo *info)
{
  g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
  g_autofree char *dir = g_file_get_path (file);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (gtk_recent_info_get_display_name (info));
  GtkWidget *location = gtk_label_new (dir);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (location), 0);
  gtk_label_set_ellipsize (GTK_LABEL (location), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (location, "dim-label");
  gtk_widget_add_css_class (location, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), location);
  g_object_set (box, "margin-top", 6, "margin-bottom", 6, "margin-start", 12, "margin-end", 12, NULL);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "file", g_steal_pointer (&file), g_object_unref);
  return row;
}

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  return g_date_time_compare (gtk_recent_info_get_modified ((GtkRecentInfo *) b),
                              gtk_recent_info_get_modified ((GtkRecentInfo *) a));
}

static void
afg_start_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AFG_TYPE_START_PAGE);

  G_OBJECT_CLASS (afg_start_page_parent_class)->dispose (object);
}

static void
afg_start_page_class_init (AfgStartPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_start_page_dispose;

  signals[SIGNAL_OPEN] =
    g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-start-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgStartPage, recent_heading);
  gtk_widget_class_bind_template_child (widget_class, AfgStartPage, recent_list);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_activated);
}

static void
afg_start_page_init (AfgStartPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

guint
afg_start_page_get_n_recent (AfgStartPage *self)
{
  g_return_val_if_fail (AFG_IS_START_PAGE (self), 0);

  return self->n_recent;
}

void
afg_start_page_populate (AfgStartPage *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  guint shown = 0;

  g_return_if_fail (AFG_IS_START_PAGE (self));

  items = g_list_sort (items, compare_recent);
  for (GList *l = items; l != NULL && shown < N_RECENT; l = l->next)
    if (gtk_recent_info_has_group (l->data, RECENT_GROUP) && gtk_recent_info_exists (l->data))
      {
        gtk_list_box_append (self->recent_list, recent_row_new (l->data));
        shown++;
      }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  gtk_widget_set_visible (self->recent_heading, shown > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), shown > 0);
  self->n_recent = shown;
  /* Enter on the start page reopens the last profile. */
  if (shown > 0 && GTK_IS_WINDOW (root))
    gtk_window_set_focus (GTK_WINDOW (root), GTK_WIDGET (gtk_list_box_get_row_at_index (self->recent_list, 0)));
}

void
afg_start_page_add_recent (GFile *file, gboolean folder)
{
  g_autofree char *uri = g_file_get_uri (file);
  /* GTK 4.8's gtk_recent_manager_add_full() tests the first byte of the
   * groups array, the low byte of the first group's address, for '\0',
   * and drops the groups when that address ends in 00 (it does in some
   * builds, e.g. with ASan's aligned globals). One byte past an aligned
   * start is odd, so never ends in 00. */
  static _Alignas (2) const char group[] = "\x01" RECENT_GROUP;
  const char *groups[] = { group + 1, NULL };
  GtkRecentData data = {
    .mime_type = (char *) (folder ? "inode/directory" : "application/vnd.sqlite3"),
    .app_name = (char *) g_get_application_name (),
    .app_exec = (char *) "ascend-flamegraph %f",
    .groups = (char **) groups,
  };

  g_return_if_fail (G_IS_FILE (file));

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}
