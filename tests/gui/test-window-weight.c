/* SPDX-License-Identifier: MIT */
/* The weight menu's other outputs, which the state line does not carry,
 * and the menu on its own with a session:
 * on the level 1 sample the status line shows the device time linked and
 * unlinked (the document's NPU counts) and by kind, in each device weight the thread
 * picker lists each thread's total in it, and the menu's label names the
 * weight; on a tree without NPU data the device items are insensitive and
 * their tooltips say why. */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "afg-format.h"
#include "afg-gui-test-tree.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

static AfgWindow *
show_window (AfgTree *tree)
{
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, NULL);

  _afg_window_show_profile (window, tree, NULL);
  gtk_window_present (GTK_WINDOW (window));
  while (afg_flame_view_is_busy (window->flame_view)
         || !gtk_widget_get_mapped (GTK_WIDGET (window->flame_view)))
    g_main_context_iteration (NULL, TRUE);
  return window;
}

static const char *
picker_item (AfgWindow *window, guint i)
{
  GListModel *model = gtk_drop_down_get_model (window->thread_dropdown);

  return gtk_string_list_get_string (GTK_STRING_LIST (model), i);
}

/* " · 12.34 ms" of @column's value at @node, as the picker prints it. */
static char *
picker_value (AfgTree *tree, AfgColumn column, guint32 node)
{
  g_autofree char *value = afg_format_duration (afg_tree_get_value (tree, column, node));

  return g_strdup_printf (" · %s", value);
}

/* The page's picker words each entry the same way (roles.test.mjs):
 * "All threads, summed over threads · TOTAL", then "ROLE · pid/tid · TOTAL"
 * or "pid/tid · TOTAL". */
static void
assert_picker (AfgWindow *window, AfgTree *tree, AfgColumn column)
{
  g_autofree char *all = picker_value (tree, column, AFG_TREE_ROOT);
  g_autofree char *all_entry = g_strconcat ("All threads, summed over threads", all, NULL);

  g_assert_cmpstr (picker_item (window, 0), ==, all_entry);
  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    {
      const AfgThread *thread = afg_tree_get_thread (tree, i);
      g_autofree char *value = picker_value (tree, column, thread->node);
      g_autofree char *entry = g_strconcat (thread->title != NULL ? thread->title : thread->label, value, NULL);

      g_assert_cmpstr (picker_item (window, i + 1), ==, entry);
    }
}

/* The CLI summary's words for the device work by kind. */
static char *
kinds_words (const AfgNpuKindStats *k)
{
  g_autofree char *compute = afg_format_duration (k->compute_ns);
  g_autofree char *comm = afg_format_duration (k->comm_ns);
  g_autofree char *exposed = afg_format_duration (k->exposed_ns);
  g_autofree char *other = afg_format_duration (k->other_ns);

  g_assert_cmpint (k->compute_ns, >, 0);
  g_assert_cmpint (k->exposed_ns, >, 0);
  return g_strdup_printf ("compute %s, communication %s (%s exposed), other %s", compute, comm, exposed, other);
}

/* @menu's item for @label. */
static GtkWidget *
item_of (AfgWeightMenu *menu, const char *label)
{
  GtkPopover *popover = gtk_menu_button_get_popover (afg_weight_menu_get_button (menu));

  for (GtkWidget *item = gtk_widget_get_first_child (gtk_popover_get_child (popover)); item != NULL;
       item = gtk_widget_get_next_sibling (item))
    if (g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (item)), label) == 0)
      return item;
  g_assert_not_reached ();
}

static GtkWidget *
menu_item (AfgWindow *window, const char *label)
{
  return item_of (window->weight_menu, label);
}

static const char *
menu_label (AfgWeightMenu *menu)
{
  return gtk_menu_button_get_label (afg_weight_menu_get_button (menu));
}

/* The menu on its own follows a session and "on-graph": shown only with
 * a tree on the graph page and no comparison, labelled and checked with
 * the weight the session's column shows, its tooltip naming Ctrl+N's
 * target, the device weight chosen last. */
static void
test_follows_session (void)
{
  g_autoptr(AfgTree) tree = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);
  g_autoptr(AfgSession) session = afg_session_new ();
  AfgWeightMenu *menu = g_object_ref_sink (g_object_new (AFG_TYPE_WEIGHT_MENU, NULL));
  GtkWidget *button = GTK_WIDGET (afg_weight_menu_get_button (menu));

  afg_weight_menu_set_session (menu, session);
  afg_session_set_weight (session, AFG_WEIGHT_HOST);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Open a profiler database to choose the weight");

  afg_session_set_tree (session, tree);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  g_object_set (menu, "on-graph", TRUE, NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (menu)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (menu)));
  g_assert_cmpstr (menu_label (menu), ==, "Host");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (item_of (menu, "Host"))));
  g_assert_true (g_str_has_suffix (gtk_widget_get_tooltip_text (button), "Ctrl+N: NPU compute"));

  afg_session_set_weight (session, AFG_WEIGHT_COMM);
  g_assert_cmpstr (menu_label (menu), ==, "Comm");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (item_of (menu, "Communication"))));
  g_assert_true (g_str_has_suffix (gtk_widget_get_tooltip_text (button), "Ctrl+N: Host"));
  afg_session_set_weight (session, AFG_WEIGHT_HOST);
  g_assert_true (g_str_has_suffix (gtk_widget_get_tooltip_text (button), "Ctrl+N: Communication"));

  afg_session_set_comparing (session, TRUE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  afg_session_set_comparing (session, FALSE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (menu)));
  afg_weight_menu_set_on_graph (menu, FALSE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  afg_weight_menu_set_on_graph (menu, TRUE);
  afg_session_set_tree (session, NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  g_object_unref (menu);
}

static void
test_sample (void)
{
  g_autoptr(AfgTree) tree = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);
  const AfgNpuStats *npu = afg_document_get_npu_stats (afg_tree_get_document (tree));
  AfgWindow *window;
  g_autofree char *linked = NULL;
  g_autofree char *unlinked = NULL;
  g_autofree char *n_linked = NULL;
  g_autofree char *n_unlinked = NULL;
  g_autofree char *n_used = NULL;
  g_autofree char *used = NULL;
  g_autofree char *words = NULL;
  g_autofree char *kinds = NULL;

  g_assert_nonnull (npu);
  g_assert_cmpint (npu->unlinked_ns, >, 0);
  window = show_window (tree);
  linked = afg_format_duration (npu->ns - npu->unlinked_ns);
  unlinked = afg_format_duration (npu->unlinked_ns);
  kinds = kinds_words (afg_document_get_npu_kind_stats (afg_tree_get_document (tree)));
  /* Counts grouped as the page and the tooltips group them, whatever
   * the locale (the sample uses over a thousand rows). */
  g_assert_cmpuint (afg_tree_get_stats (tree)->used, >=, 1000);
  n_used = afg_format_count (afg_tree_get_stats (tree)->used);
  used = g_strconcat (n_used, " rows used", NULL);
  g_assert_nonnull (strchr (n_used, ','));
  g_assert_nonnull (strstr (afg_status_bar_get_text (window->status_bar), used));
  n_linked = afg_format_count (npu->tasks - npu->unlinked_tasks);
  n_unlinked = afg_format_count (npu->unlinked_tasks);
  words = g_strdup_printf ("NPU %s linked (%s tasks), %s unlinked (%s)", linked, n_linked, unlinked, n_unlinked);
  g_test_message ("%s", afg_status_bar_get_text (window->status_bar));
  g_assert_nonnull (strstr (afg_status_bar_get_text (window->status_bar), words));
  g_assert_nonnull (strstr (afg_status_bar_get_text (window->status_bar), kinds));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (window->weight_menu)));
  g_assert_cmpstr (gtk_menu_button_get_label (afg_weight_menu_get_button (window->weight_menu)), ==, "Host");
  assert_picker (window, tree, AFG_COLUMN_TOTAL_NS);

  /* Ctrl+N: host time and the default device weight, compute. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-weight", NULL);
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS);
  g_assert_cmpstr (gtk_menu_button_get_label (afg_weight_menu_get_button (window->weight_menu)), ==, "Compute");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (menu_item (window, "NPU compute"))));
  assert_picker (window, tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (menu_item (window, "All device tasks")), TRUE);
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_NPU_TOTAL_NS);
  g_assert_cmpstr (gtk_menu_button_get_label (afg_weight_menu_get_button (window->weight_menu)), ==, "NPU");
  assert_picker (window, tree, AFG_COLUMN_NPU_TOTAL_NS);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.weight", "s", "exposed");
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS);
  assert_picker (window, tree, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (menu_item (window, "Host")), TRUE);
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_TOTAL_NS);
  assert_picker (window, tree, AFG_COLUMN_TOTAL_NS);
  /* Ctrl+N goes back to the device weight chosen last. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-weight", NULL);
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_no_npu (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgWindow *window = show_window (f->tree);

  g_assert_false (afg_tree_has_column (f->tree, AFG_COLUMN_NPU_TOTAL_NS));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->weight_menu)));
  g_assert_true (gtk_widget_get_sensitive (menu_item (window, "Host")));
  for (guint i = 0; i < 4; i++)
    {
      const char *device[] = { "NPU compute", "Communication", "Exposed communication", "All device tasks" };

      g_assert_false (gtk_widget_get_sensitive (menu_item (window, device[i])));
      g_assert_cmpstr (gtk_widget_get_tooltip_text (menu_item (window, device[i])), ==,
                       "No NPU time: this database has no TASK and CONNECTION_IDS tables");
    }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.weight", "s", "compute");
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_TOTAL_NS);
  g_assert_null (strstr (afg_status_bar_get_text (window->status_bar), "NPU"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-weight", NULL);
  g_assert_cmpint (afg_flame_view_get_weight (window->flame_view), ==, AFG_COLUMN_TOTAL_NS);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/window-weight/sample", test_sample);
  g_test_add_func ("/window-weight/follows-session", test_follows_session);
  g_test_add ("/window-weight/no-npu", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_no_npu,
              afg_gui_tree_fixture_tear_down);
  return g_test_run ();
}
