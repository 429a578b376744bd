/* SPDX-License-Identifier: MIT */
/* The Functions panel as a widget: every column sorts its rows, the
 * filter keeps the names that hold the text, the NPU weight swaps the
 * times and the sandwich's widths (keeping the pick), and a pick shows its
 * sandwich and its calls' histogram. */
#include <gtk/gtk.h>

#include "afg-function-item.h"
#include "afg-function-panel.h"
#include "afg-test-db.h"

#define T2 GTID (1, 2)

/* afg_test_db_new_npu_recursion (): f launches 10 ns of device time, g 20 ns,
 * the inner f 40 ns; h in another thread has the most host self time and
 * none. */
static AfgTree *
make_tree (void)
{
  AfgTestDb *db = afg_test_db_new_npu_recursion ();
  g_autoptr(AfgDocument) document = NULL;

  afg_test_db_add (db, T2, 0, 5000, "h");
  afg_test_db_add (db, T2, 10, 20, "Fx");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return afg_test_build (document, NULL, AFG_TREE_DURATIONS);
}

static GListModel *
rows (AfgFunctionPanel *panel)
{
  return G_LIST_MODEL (gtk_column_view_get_model (afg_function_panel_get_column_view (panel)));
}

static char *
row_name (AfgFunctionPanel *panel, guint position)
{
  g_autoptr(AfgFunctionItem) item = g_list_model_get_item (rows (panel), position);

  return g_strdup (afg_function_item_get_name (item));
}

static void
settle (AfgFunctionPanel *panel)
{
  while (afg_function_panel_is_busy (panel)
         || afg_flame_view_is_busy (afg_function_panel_get_callers (panel))
         || afg_flame_view_is_busy (afg_function_panel_get_callees (panel)))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* The sign of a - b; names as GtkStringSorter orders them (case
 * folded, collated). */
static int
compare_values (const GValue *a, const GValue *b)
{
  if (G_VALUE_HOLDS_STRING (a))
    {
      g_autofree char *fa = g_utf8_casefold (g_value_get_string (a), -1);
      g_autofree char *fb = g_utf8_casefold (g_value_get_string (b), -1);
      int c = g_utf8_collate (fa, fb);

      return (c > 0) - (c < 0);
    }
  if (G_VALUE_HOLDS_DOUBLE (a))
    return (g_value_get_double (a) > g_value_get_double (b)) - (g_value_get_double (a) < g_value_get_double (b));
  return (g_value_get_int64 (a) > g_value_get_int64 (b)) - (g_value_get_int64 (a) < g_value_get_int64 (b));
}

/* Each column, ascending then descending: its property never goes the
 * wrong way down the rows. */
static void
test_sort_every_column (void)
{
  static const char *props[] = { "name", "calls", "self-ns", "total-ns", "percent" };
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));
  GListModel *columns = gtk_column_view_get_columns (afg_function_panel_get_column_view (panel));

  afg_function_panel_set_tree (panel, tree);
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, G_N_ELEMENTS (props));
  g_assert_cmpuint (g_list_model_get_n_items (rows (panel)), ==, 4);
  for (guint c = 0; c < G_N_ELEMENTS (props); c++)
    for (int order = GTK_SORT_ASCENDING; order <= GTK_SORT_DESCENDING; order++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

        gtk_column_view_sort_by_column (afg_function_panel_get_column_view (panel), column, order);
        for (guint i = 1; i < g_list_model_get_n_items (rows (panel)); i++)
          {
            g_autoptr(GObject) a = g_list_model_get_item (rows (panel), i - 1);
            g_auto(GValue) va = G_VALUE_INIT;
            g_autoptr(GObject) b = g_list_model_get_item (rows (panel), i);
            g_auto(GValue) vb = G_VALUE_INIT;
            int cmp;

            g_object_get_property (a, props[c], &va);
            g_object_get_property (b, props[c], &vb);
            cmp = compare_values (&va, &vb);
            g_assert_cmpint (order == GTK_SORT_ASCENDING ? cmp : -cmp, <=, 0);
          }
      }
  g_object_unref (panel);
}

static void
test_filter (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));

  afg_function_panel_set_tree (panel, tree);
  afg_function_panel_set_filter (panel, "F");
  g_assert_cmpuint (afg_function_panel_get_n_shown (panel), ==, 2);
  afg_function_panel_set_filter (panel, "g");
  g_assert_cmpuint (afg_function_panel_get_n_shown (panel), ==, 1);
  afg_function_panel_set_filter (panel, "");
  g_assert_cmpuint (afg_function_panel_get_n_shown (panel), ==, 4);
  g_object_unref (panel);
}

/* The width (a fraction of the view) of the frame named @name in @view's
 * layout, and that layout's weight. */
static double
frame_width (AfgFlameView *view, const char *name, AfgColumn *weight)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (view);
  const AfgFlameFrame *frames;
  guint n;

  g_assert_nonnull (layout);
  *weight = afg_flame_layout_get_weight (layout);
  frames = afg_flame_layout_get_frames (layout, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (afg_tree_get_node_name (afg_flame_layout_get_tree (layout), frames[i].node), name) == 0)
      return frames[i].width;
  return 0;
}

/* g's sandwich follows the weight: of g's 400 ns of host time the inner f
 * takes 100, of its 60 ns of device time 40. */
static void
test_npu_sandwich (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));
  AfgColumn weight;

  afg_function_panel_set_tree (panel, tree);
  afg_function_panel_select (panel, "g");
  settle (panel);
  g_assert_cmpfloat_with_epsilon (frame_width (afg_function_panel_get_callees (panel), "f", &weight), 0.25, 1e-9);
  g_assert_cmpint (weight, ==, AFG_COLUMN_TOTAL_NS);
  afg_function_panel_set_weight (panel, AFG_COLUMN_NPU_TOTAL_NS);
  settle (panel);
  g_assert_cmpfloat_with_epsilon (frame_width (afg_function_panel_get_callees (panel), "f", &weight), 40.0 / 60, 1e-9);
  g_assert_cmpint (weight, ==, AFG_COLUMN_NPU_TOTAL_NS);
  /* The callers: g's only caller, the top-level f, as wide as g. */
  g_assert_cmpfloat_with_epsilon (frame_width (afg_function_panel_get_callers (panel), "f", &weight), 1.0, 1e-9);
  g_assert_cmpint (weight, ==, AFG_COLUMN_NPU_TOTAL_NS);
  /* h launched nothing: under the NPU weight its sandwich is empty. */
  afg_function_panel_select (panel, "h");
  settle (panel);
  g_assert_null (afg_flame_view_get_layout (afg_function_panel_get_callees (panel)));
  g_assert_null (afg_flame_view_get_layout (afg_function_panel_get_callers (panel)));
  afg_function_panel_set_weight (panel, AFG_COLUMN_TOTAL_NS);
  settle (panel);
  g_assert_cmpfloat_with_epsilon (frame_width (afg_function_panel_get_callees (panel), "h", &weight), 1.0, 1e-9);
  g_object_unref (panel);
}

/* Self time first: h by host time, f by NPU time; the pick survives. */
static void
test_npu_weight (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));
  g_autofree char *host_first = NULL;
  g_autofree char *npu_first = NULL;
  g_autoptr(AfgFunctionItem) item = NULL;
  gint64 self_ns, total_ns;

  afg_function_panel_set_tree (panel, tree);
  afg_function_panel_select (panel, "g");
  host_first = row_name (panel, 0);
  g_assert_cmpstr (host_first, ==, "h");
  afg_function_panel_set_weight (panel, AFG_COLUMN_NPU_TOTAL_NS);
  npu_first = row_name (panel, 0);
  g_assert_cmpstr (npu_first, ==, "f");
  item = g_list_model_get_item (rows (panel), 0);
  g_object_get (item, "self-ns", &self_ns, "total-ns", &total_ns, NULL);
  g_assert_cmpint (self_ns, ==, 50);
  g_assert_cmpint (total_ns, ==, 70);
  g_assert_cmpstr (afg_function_table_get_name (afg_function_panel_get_table (panel),
                                                afg_function_panel_get_selected (panel)), ==, "g");
  settle (panel);
  g_object_unref (panel);
}

/* Per step divides calls, self and total as the graph's tooltip does;
 * the share stays the same. */
static void
test_per_step (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));
  g_auto(GStrv) whole = NULL;
  g_auto(GStrv) per_step = NULL;
  char *text;

  afg_function_panel_set_tree (panel, tree);
  whole = g_strsplit (text = afg_function_panel_get_row_text (panel, 0), "\t", -1);
  g_free (text);
  afg_function_panel_set_divisor (panel, 2);
  per_step = g_strsplit (text = afg_function_panel_get_row_text (panel, 0), "\t", -1);
  g_free (text);
  g_assert_cmpuint (g_strv_length (whole), ==, 5);
  g_assert_cmpstr (whole[0], ==, "h");
  g_assert_cmpstr (per_step[0], ==, "h");
  g_assert_cmpstr (whole[1], ==, "1");
  g_assert_cmpstr (per_step[1], ==, "0.50");
  g_assert_cmpstr (whole[3], ==, "5.0 µs");
  g_assert_cmpstr (per_step[3], ==, "2.5 µs");
  g_assert_cmpstr (per_step[4], ==, whole[4]);
  settle (panel);
  g_object_unref (panel);
}

/* Picking f: its callers (g, the top-level f has none), its callees (g)
 * and both its calls in the histogram; a frame narrows it to one call. */
static void
test_pick (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgFunctionPanel *panel = g_object_ref_sink (AFG_FUNCTION_PANEL (afg_function_panel_new ()));
  AfgTree *callers, *callees;

  afg_function_panel_set_tree (panel, tree);
  afg_function_panel_select (panel, "f");
  settle (panel);
  callers = afg_flame_layout_get_tree (afg_flame_view_get_layout (afg_function_panel_get_callers (panel)));
  callees = afg_flame_layout_get_tree (afg_flame_view_get_layout (afg_function_panel_get_callees (panel)));
  g_assert_cmpuint (afg_tree_get_node (callers, AFG_TREE_ROOT)->n_children, ==, 0);
  g_assert_cmpint (afg_tree_get_value (callers, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 1000);
  g_assert_cmpuint (afg_tree_get_node (callees, AFG_TREE_ROOT)->n_children, ==, 1);
  g_assert_cmpstr (afg_tree_get_node_name (callees, afg_tree_get_node (callees, AFG_TREE_ROOT)->first_child), ==, "g");
  g_assert_cmpuint (afg_duration_histogram_get_n_values (afg_function_panel_get_histogram (panel)), ==, 2);
  afg_function_panel_show_frame (panel, afg_test_find_node (tree, "1/1;f;g;f"));
  settle (panel);
  g_assert_cmpuint (afg_duration_histogram_get_n_values (afg_function_panel_get_histogram (panel)), ==, 1);
  g_assert_cmpuint (afg_duration_histogram_get_n_buckets (afg_function_panel_get_histogram (panel)), ==, 1);
  afg_function_panel_select (panel, NULL);
  settle (panel);
  g_assert_cmpuint (afg_duration_histogram_get_n_values (afg_function_panel_get_histogram (panel)), ==, 0);
  g_assert_null (afg_flame_view_get_layout (afg_function_panel_get_callers (panel)));
  g_object_unref (panel);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/function-panel/sort-every-column", test_sort_every_column);
  g_test_add_func ("/function-panel/filter", test_filter);
  g_test_add_func ("/function-panel/npu-weight", test_npu_weight);
  g_test_add_func ("/function-panel/pick", test_pick);
  g_test_add_func ("/function-panel/npu-sandwich", test_npu_sandwich);
  g_test_add_func ("/function-panel/per-step", test_per_step);
  return g_test_run ();
}
