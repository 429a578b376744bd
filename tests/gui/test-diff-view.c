/* SPDX-License-Identifier: MIT */
/* AfgDiffView on a real AfgFlameView: the diff's colours on screen, the
 * shape toggle keeping the zoom, the tooltip, normalisation; the options
 * that show and change its actions. */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "afg-diff-options.h"
#include "afg-diff-view.h"
#include "afg-format.h"
#include "afg-gui-test-tree.h"
#include "afg-window-private.h"

#define WIDTH 600
#define HEIGHT 200
#define MS 1000000

static void
settle (GtkWidget *view)
{
  while (afg_flame_view_is_busy (AFG_FLAME_VIEW (view)))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* A: f (10 ms) > g (2 ms, only in A). B: f (30 ms) > h (4 ms, only in B). */
static AfgDiffShape *
make_shape (void)
{
  static const AfgTestEvent ea[] = {
    { GTID (1, 1), 0, 10 * MS, "f" }, { GTID (1, 1), 1 * MS, 3 * MS, "g" },
  };
  static const AfgTestEvent eb[] = {
    { GTID (2, 2), 0, 30 * MS, "f" }, { GTID (2, 2), 2 * MS, 6 * MS, "h" },
  };
  g_autoptr(AfgTree) a = afg_test_load_events (AFG_TEST_DB_DEFAULT, ea, G_N_ELEMENTS (ea));
  g_autoptr(AfgTree) b = afg_test_load_events (AFG_TEST_DB_DEFAULT, eb, G_N_ELEMENTS (eb));

  return afg_diff_shape_new (a, b, "a ↔ b", NULL);
}

static guint32
child_named (AfgTree *tree, guint32 parent, const char *name)
{
  const AfgNode *p = afg_tree_get_node (tree, parent);

  for (guint32 c = p->first_child; c < p->first_child + p->n_children; c++)
    if (strcmp (afg_tree_get_node_name (tree, c), name) == 0)
      return c;
  g_assert_not_reached ();
}

static void
pixel (GtkWidget *widget, int x, int y, int rgb[3])
{
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *data = g_malloc0 (WIDTH * 4 * HEIGHT);
  guint32 p;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gsk_renderer_realize (renderer, NULL, NULL));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
  gdk_texture_download (texture, data, WIDTH * 4);
  gsk_renderer_unrealize (renderer);
  p = *(guint32 *) (data + y * WIDTH * 4 + x * 4);
  for (int i = 0; i < 3; i++)
    rgb[i] = (p >> (16 - 8 * i)) & 0xff;
}

static void
assert_color_at (GtkWidget *view, int x, guint row, AfgDiffShape *shape, guint32 node, AfgColumn column)
{
  const AfgDiffNoise noise = { AFG_DIFF_DEFAULT_MIN_NS, AFG_DIFF_DEFAULT_MIN_PERCENT };
  AfgFlameColor c;
  int rgb[3];
  double a = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, column, node);
  double b = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, column, node);

  afg_diff_compared (&a, &b, afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, node),
                     afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, node), &noise);
  afg_diff_color (a, b, afg_diff_shape_has_node (shape, AFG_DIFF_SIDE_A, node),
                  afg_diff_shape_has_node (shape, AFG_DIFF_SIDE_B, node), &noise, &c);
  pixel (view, x, row * AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT / 2, rgb);
  g_test_message ("%d %d %d, want %.0f %.0f %.0f", rgb[0], rgb[1], rgb[2], c.red * 255, c.green * 255, c.blue * 255);
  g_assert_cmpint (ABS (rgb[0] - (int) (c.red * 255 + 0.5)), <=, 3);
  g_assert_cmpint (ABS (rgb[1] - (int) (c.green * 255 + 0.5)), <=, 3);
  g_assert_cmpint (ABS (rgb[2] - (int) (c.blue * 255 + 0.5)), <=, 3);
}

static double
frame_width (GtkWidget *view, guint32 node)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (AFG_FLAME_VIEW (view));
  guint32 frame = afg_flame_layout_find_node (layout, node);
  guint n;

  return frame == AFG_FLAME_NO_FRAME ? 0 : afg_flame_layout_get_frames (layout, &n)[frame].width;
}

static void
test_diff_view (void)
{
  g_autoptr(AfgDiffShape) shape = make_shape ();
  AfgTree *tree_b = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B);
  AfgTree *tree_a = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_A);
  guint32 f = child_named (tree_b, AFG_TREE_ROOT, "f");
  guint32 g = child_named (tree_b, f, "g");
  guint32 h = child_named (tree_b, f, "h");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = afg_flame_view_new ();
  AfgDiffView *diff = afg_diff_view_new (AFG_FLAME_VIEW (view));
  GActionGroup *actions = afg_diff_view_get_actions (diff);
  g_autofree char *tip = NULL;
  g_autofree char *thirty = afg_format_duration (30 * MS);
  g_autofree char *scaled = NULL;

  gtk_widget_set_size_request (view, WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  afg_diff_view_set_shape (diff, shape, NULL);
  settle (view);
  while (gtk_widget_get_width (view) != WIDTH || !gtk_widget_get_mapped (view))
    g_main_context_iteration (NULL, TRUE);
  settle (view);

  /* B's shape: f spans the width, g (only in A) is not drawn, h is 4/30. */
  g_assert_true (afg_flame_layout_get_tree (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))) == tree_b);
  g_assert_cmpfloat (frame_width (view, g), ==, 0);
  g_assert_cmpfloat_with_epsilon (frame_width (view, h), 4.0 / 30, 1e-9);
  /* Icicle rows: root 0, f 1, h 2 (x 0 .. 4/30, g before it is empty);
   * a point right of the label. Colour by self. */
  assert_color_at (view, WIDTH / 2, 1, shape, f, AFG_COLUMN_SELF_NS);
  assert_color_at (view, WIDTH * 4 / 30 - 3, 2, shape, h, AFG_COLUMN_SELF_NS);
  g_action_group_change_action_state (actions, "color", g_variant_new_string ("total"));
  settle (view);
  g_assert_cmpstr (afg_diff_view_get_option (diff, "color"), ==, "total");
  assert_color_at (view, WIDTH / 2, 1, shape, f, AFG_COLUMN_TOTAL_NS);

  /* A's shape keeps the zoom into f; g is there, h is not. */
  afg_flame_view_zoom_to (AFG_FLAME_VIEW (view), f);
  settle (view);
  g_action_group_change_action_state (actions, "shape", g_variant_new_string ("a"));
  settle (view);
  g_assert_true (afg_diff_view_get_tree (diff) == tree_a);
  g_assert_true (afg_flame_layout_get_tree (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))) == tree_a);
  g_assert_cmpuint (afg_flame_layout_get_zoom_root (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))), ==, f);
  g_assert_cmpfloat_with_epsilon (frame_width (view, g), 0.2, 1e-9);
  g_assert_cmpfloat (frame_width (view, h), ==, 0);

  tip = afg_diff_view_get_tooltip_text (diff, g);
  g_assert_nonnull (strstr (tip, "Only in A"));
  g_assert_nonnull (strstr (tip, "Calls: 1 → 0"));
  /* A loss takes U+2212, as the page writes it, the share too. */
  g_assert_nonnull (strstr (tip, " → 0 ns (−"));
  g_assert_nonnull (strstr (tip, ", −100.0%)"));
  g_clear_pointer (&tip, g_free);

  /* Equal totals: A's 10 ms root scaled to B's 30 ms. */
  g_action_group_change_action_state (actions, "norm", g_variant_new_string ("equal-totals"));
  tip = afg_diff_view_get_tooltip_text (diff, AFG_TREE_ROOT);
  scaled = g_strdup_printf ("Total: %s → %s (0 ns, 0.0%%)", thirty, thirty);
  g_assert_nonnull (strstr (tip, scaled));
  g_assert_cmpstr (afg_diff_view_get_option (diff, "norm"), ==, "equal-totals");

  afg_diff_view_set_shape (diff, NULL, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  afg_diff_view_free (diff);
}

static guint
n_steps (AfgTree *tree)
{
  guint n = 0;

  afg_document_get_steps (afg_tree_get_document (tree), &n);
  return n;
}

/* Per step divides each side by its own step count: A has 2 steps with
 * 8 ms of f each and a g in the first, B 4 with 9 ms each and a g in the
 * first. */
static void
test_per_step (void)
{
  static const AfgTestEvent ea[] = {
    { GTID (1, 1), 0, 10 * MS, "ProfilerStep#1" }, { GTID (1, 1), 0, 8 * MS, "f" },
    { GTID (1, 1), 8 * MS, 8 * MS + 2489999, "g" },
    { GTID (1, 1), 10 * MS, 20 * MS, "ProfilerStep#2" }, { GTID (1, 1), 10 * MS, 18 * MS, "f" },
  };
  static const AfgTestEvent eb[] = {
    { GTID (1, 1), 0, 10 * MS, "ProfilerStep#1" }, { GTID (1, 1), 0, 9 * MS, "f" },
    { GTID (1, 1), 9 * MS, 9 * MS + 500000, "g" },
    { GTID (1, 1), 10 * MS, 20 * MS, "ProfilerStep#2" }, { GTID (1, 1), 10 * MS, 19 * MS, "f" },
    { GTID (1, 1), 20 * MS, 30 * MS, "ProfilerStep#3" }, { GTID (1, 1), 20 * MS, 29 * MS, "f" },
    { GTID (1, 1), 30 * MS, 40 * MS, "ProfilerStep#4" }, { GTID (1, 1), 30 * MS, 39 * MS, "f" },
  };
  g_autoptr(AfgTree) a = afg_test_load_events (AFG_TEST_DB_DEFAULT, ea, G_N_ELEMENTS (ea));
  g_autoptr(AfgTree) b = afg_test_load_events (AFG_TEST_DB_DEFAULT, eb, G_N_ELEMENTS (eb));
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  GtkWidget *view = g_object_ref_sink (afg_flame_view_new ());
  AfgDiffView *diff = afg_diff_view_new (AFG_FLAME_VIEW (view));
  /* A: (16 ms + 2,489,999 ns) / 2; B: (36 ms + 0.5 ms) / 4. */
  g_autofree char *text_a = afg_format_duration (9244999);
  g_autofree char *text_b = afg_format_duration (9125000);
  g_autofree char *line = g_strdup_printf ("Total / step: %s → %s (", text_a, text_b);
  g_autofree char *tip = NULL;
  AfgTree *tree;

  g_assert_cmpuint (n_steps (a), ==, 2);
  g_assert_cmpuint (n_steps (b), ==, 4);
  afg_diff_view_set_shape (diff, shape, NULL);
  g_action_group_change_action_state (afg_diff_view_get_actions (diff), "norm", g_variant_new_string ("per-step"));
  tip = afg_diff_view_get_tooltip_text (diff, AFG_TREE_ROOT);
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, line));
  g_assert_nonnull (strstr (tip, "Times normalised: Per step"));
  g_clear_pointer (&tip, g_free);

  /* g: 2,489,999 ns over A's 2 steps, 1,244,999.5 a step, is truncated
   * to whole ns as the page's format does (1.24 ms, not 1.25); its one
   * call is half a call a step in A, a quarter in B: a 50% loss of A's
   * half, as the page's share of a part below 1 says. */
  tree = afg_diff_view_get_tree (diff);
  for (guint32 n = 1; n < afg_tree_get_n_nodes (tree) && tip == NULL; n++)
    if (strcmp (afg_tree_get_node_name (tree, n), "g") == 0)
      tip = afg_diff_view_get_tooltip_text (diff, n);
  g_assert_nonnull (tip);
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, "Self / step: 1.24 ms → 125.0 µs ("));
  g_assert_nonnull (strstr (tip, "Calls / step: 0.50 → 0.25 (−0.25, −50.0%)"));
  afg_diff_view_set_shape (diff, NULL, NULL);
  afg_diff_view_free (diff);
  settle (view);
  g_object_unref (view);
}

static void
wait_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* A comparison cancelled while loading leaves the start page, and its
 * result, when the workers finish, is dropped; one that fails on B shows
 * the error page. */
static void
test_window_cancel (void)
{
  g_autofree char *a = afg_test_sample_path ("ascend_pytorch_profiler_level0_rank0", ".db");
  g_autofree char *b = afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", ".db");
  g_autoptr(GFile) file_a = g_file_new_for_path (a);
  g_autoptr(GFile) file_b = g_file_new_for_path (b);
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/x.db");
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, NULL);

  gtk_window_present (GTK_WINDOW (window));
  afg_window_compare (window, file_a, file_b);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "loading");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==,
                   "ascend_pytorch_profiler_level0_rank0.db ↔ ascend_pytorch_profiler_level1_rank0.db");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL);
  wait_ms (1500);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "empty");
  g_assert_false (_afg_window_is_comparing (window));
  g_assert_null (afg_window_get_file (window));

  afg_window_compare (window, file_a, missing);
  while (g_strcmp0 (gtk_stack_get_visible_child_name (window->stack), "loading") == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "error");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widget's snapshot, whatever it holds, dropped. */
static void
draw_once (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_clear_pointer (&node, gsk_render_node_unref);
}

/* The other side's tree, or another tree, while its layout is still
 * being built: a frame drawn then shows the last picture (the renderer
 * is the new tree's, the layout was the old one's: drawing that one was
 * a critical), the pointer hits nothing, and the new layout lands. */
static void
test_draw_while_building (void)
{
  g_autoptr(AfgDiffShape) shape = make_shape ();
  AfgTree *tree_a = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_A);
  AfgTree *tree_b = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = afg_flame_view_new ();
  AfgDiffView *diff = afg_diff_view_new (AFG_FLAME_VIEW (view));
  int before[3], during[3];

  gtk_widget_set_size_request (view, WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  afg_diff_view_set_shape (diff, shape, NULL);
  while (gtk_widget_get_width (view) != WIDTH || !gtk_widget_get_mapped (view))
    g_main_context_iteration (NULL, TRUE);
  settle (view);
  pixel (view, WIDTH / 2, AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT / 2, before);

  /* No main loop turn: the worker's layout cannot have landed. */
  g_action_group_change_action_state (afg_diff_view_get_actions (diff), "shape", g_variant_new_string ("a"));
  g_assert_true (afg_flame_view_is_busy (AFG_FLAME_VIEW (view)));
  g_assert_null (afg_flame_view_get_layout (AFG_FLAME_VIEW (view)));
  pixel (view, WIDTH / 2, AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT / 2, during);
  g_assert_cmpint (during[0], ==, before[0]);
  g_assert_cmpint (during[1], ==, before[1]);
  g_assert_cmpint (during[2], ==, before[2]);
  g_assert_cmpuint (afg_flame_view_get_hover_node (AFG_FLAME_VIEW (view)), ==, AFG_FLAME_NO_FRAME);
  settle (view);
  g_assert_true (afg_flame_layout_get_tree (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))) == tree_a);

  /* Another tree altogether (the diff's colours gone first: no last
   * picture is left to show, and nothing is drawn). */
  afg_diff_view_set_shape (diff, NULL, NULL);
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), tree_b);
  g_assert_null (afg_flame_view_get_layout (AFG_FLAME_VIEW (view)));
  draw_once (view);
  settle (view);
  g_assert_true (afg_flame_layout_get_tree (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))) == tree_b);

  gtk_window_destroy (GTK_WINDOW (window));
  afg_diff_view_free (diff);
}

/* The @n-th (from 0) descendant of @widget of @type, depth first. */
static GtkWidget *
nth_of_type (GtkWidget *widget, GType type, guint *n)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && (*n)-- == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = nth_of_type (c, type, n);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
popover_child (GtkWidget *options, GType type, guint n)
{
  guint zero = 0;
  GtkWidget *button = nth_of_type (options, GTK_TYPE_MENU_BUTTON, &zero);

  g_assert_nonnull (button);
  return nth_of_type (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))), type, &n);
}

static gboolean
toggle_is (GtkWidget *options, guint n, const char *action, const char *target)
{
  GtkWidget *toggle = popover_child (options, GTK_TYPE_TOGGLE_BUTTON, n);
  GVariant *value = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (toggle));

  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (toggle)), ==, action);
  g_assert_cmpstr (g_variant_get_string (value, NULL), ==, target);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle));
}

static double
state_double (GActionGroup *actions, const char *name)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (actions, name);

  return g_variant_get_double (state);
}

static char *
state_string (GActionGroup *actions, const char *name)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (actions, name);

  return g_variant_dup_string (state, NULL);
}

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The toggles are the actions' targets, checked as their states say; the
 * two thresholds show the states and set them, both ways. */
static void
test_options (void)
{
  GtkWidget *view = g_object_ref_sink (afg_flame_view_new ());
  AfgDiffView *diff = afg_diff_view_new (AFG_FLAME_VIEW (view));
  GActionGroup *actions = afg_diff_view_get_actions (diff);
  GtkWidget *options = afg_diff_options_new (actions);
  GtkWidget *window = gtk_window_new ();
  GtkSpinButton *min_ms = GTK_SPIN_BUTTON (popover_child (options, GTK_TYPE_SPIN_BUTTON, 0));
  GtkSpinButton *min_percent = GTK_SPIN_BUTTON (popover_child (options, GTK_TYPE_SPIN_BUTTON, 1));
  g_autofree char *shape = NULL;
  g_autofree char *color = NULL;

  gtk_window_set_child (GTK_WINDOW (window), options);
  gtk_window_present (GTK_WINDOW (window));
  drain ();
  g_assert_cmpfloat (gtk_spin_button_get_value (min_ms), ==, state_double (actions, "min-ms"));
  g_assert_cmpfloat (gtk_spin_button_get_value (min_percent), ==, state_double (actions, "min-percent"));
  g_assert_true (toggle_is (options, 0, "diff.shape", "b"));
  g_assert_false (toggle_is (options, 1, "diff.shape", "a"));
  g_assert_true (toggle_is (options, 2, "diff.color", "self"));
  g_assert_false (toggle_is (options, 3, "diff.color", "total"));
  g_assert_true (toggle_is (options, 4, "diff.norm", "raw"));
  g_assert_false (toggle_is (options, 5, "diff.norm", "per-step"));
  g_assert_false (toggle_is (options, 6, "diff.norm", "equal-totals"));

  gtk_spin_button_set_value (min_ms, 2.5);
  g_assert_cmpfloat (state_double (actions, "min-ms"), ==, 2.5);
  g_action_group_change_action_state (actions, "min-percent", g_variant_new_double (12));
  g_assert_cmpfloat (gtk_spin_button_get_value (min_percent), ==, 12);

  g_signal_emit_by_name (popover_child (options, GTK_TYPE_TOGGLE_BUTTON, 1), "clicked");
  drain ();
  shape = state_string (actions, "shape");
  g_assert_cmpstr (shape, ==, "a");
  g_assert_false (toggle_is (options, 0, "diff.shape", "b"));
  g_assert_true (toggle_is (options, 1, "diff.shape", "a"));
  g_action_group_change_action_state (actions, "color", g_variant_new_string ("total"));
  drain ();
  color = state_string (actions, "color");
  g_assert_cmpstr (color, ==, "total");
  g_assert_true (toggle_is (options, 3, "diff.color", "total"));

  gtk_window_destroy (GTK_WINDOW (window));
  afg_diff_view_free (diff);
  g_object_unref (view);
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-view/toggles", test_diff_view);
  g_test_add_func ("/diff-view/window-cancel", test_window_cancel);
  g_test_add_func ("/diff-view/per-step", test_per_step);
  g_test_add_func ("/diff-view/draw-while-building", test_draw_while_building);
  g_test_add_func ("/diff-view/options", test_options);
  return g_test_run ();
}
