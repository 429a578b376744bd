/* SPDX-License-Identifier: MIT */
#include "afg-flame-layout.h"
#include "afg-flame-search.h"
#include "afg-gui-test-tree.h"
#include "afg-writers.h"


static const AfgFlameFrame *
frame (const AfgFlameLayout *layout, guint32 index)
{
  guint n;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (layout, &n);

  g_assert_cmpuint (index, <, n);
  return &frames[index];
}

static void
assert_frame (const AfgFlameLayout *layout, guint32 index, guint32 node, guint row, double x,
              double width)
{
  const AfgFlameFrame *fr = frame (layout, index);

  g_assert_cmpuint (fr->node, ==, node);
  g_assert_cmpuint (fr->row, ==, row);
  g_assert_cmpfloat_with_epsilon (fr->x, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (fr->width, width, 1e-9);
}

static void
test_all_threads (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  guint n;

  afg_flame_layout_get_frames (layout, &n);
  g_assert_cmpuint (n, ==, 9);
  g_assert_cmpuint (afg_flame_layout_get_n_rows (layout), ==, 5);
  assert_frame (layout, 0, AFG_TREE_ROOT, 0, 0, 1);
  assert_frame (layout, 1, afg_gui_tree_node (f, "1/2"), 1, 0, 1000.0 / 1500);
  assert_frame (layout, 2, afg_gui_tree_node (f, "1/3"), 1, 1000.0 / 1500, 500.0 / 1500);
  assert_frame (layout, 3, afg_gui_tree_node (f, "1/2;main.py(1): run"), 2, 0, 1000.0 / 1500);
  assert_frame (layout, 4, afg_gui_tree_node (f, "1/3;acl_op"), 2, 1000.0 / 1500, 500.0 / 1500);
  assert_frame (layout, 5, afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add"), 3, 0, 300.0 / 1500);
  assert_frame (layout, 6, afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward"), 3, 0.2, 400.0 / 1500);
  assert_frame (layout, 7, afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add;aten::mul"), 4, 0, 100.0 / 1500);
  assert_frame (layout, 8, afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm"), 4, 0.2, 200.0 / 1500);
  for (guint i = 1; i < n; i++)
    g_assert_true (frame (layout, i - 1)->row < frame (layout, i)->row
                   || frame (layout, i - 1)->x < frame (layout, i)->x);
  afg_flame_layout_free (layout);
}

static void
test_hit_test (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);

  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 0, 0.99, 0), ==, 0);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 1, 0.5, 0), ==, 1);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 1, 0.7, 0), ==, 2);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 3, 0.1, 0), ==, 5);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 3, 0.3, 0), ==, 6);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 3, 0.5, 0), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 4, 0.05, 0), ==, 7);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 4, 0.1, 0), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 5, 0.1, 0), ==, AFG_FLAME_NO_FRAME);
  /* Frames narrower than a pixel are culled from hit-testing too. */
  g_assert_cmpuint (afg_flame_layout_hit_test (layout, 4, 0.05, 0.1), ==, AFG_FLAME_NO_FRAME);
  afg_flame_layout_free (layout);
}

static void
test_navigation (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);

  g_assert_cmpuint (afg_flame_layout_get_parent (layout, 8), ==, 6);
  g_assert_cmpuint (afg_flame_layout_get_parent (layout, 6), ==, 3);
  g_assert_cmpuint (afg_flame_layout_get_parent (layout, 0), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_first_child (layout, 0), ==, 1);
  g_assert_cmpuint (afg_flame_layout_get_first_child (layout, 6), ==, 8);
  g_assert_cmpuint (afg_flame_layout_get_first_child (layout, 8), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_first_child (layout, 4), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_find_node (layout, afg_gui_tree_node (f, "1/3;acl_op")), ==, 4);
  /* Left and Right stay among one parent's children: run (3) and acl_op
   * (4) share a row but not a thread, nor do aten::mul (7) and aten::mm. */
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 3, TRUE), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 4, FALSE), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 7, TRUE), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 5, TRUE), ==, 6);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 6, FALSE), ==, 5);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 1, FALSE), ==, AFG_FLAME_NO_FRAME);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 1, TRUE), ==, 2);
  g_assert_cmpuint (afg_flame_layout_get_sibling (layout, 0, FALSE), ==, AFG_FLAME_NO_FRAME);
  afg_flame_layout_free (layout);
}

static void
test_zoom (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint32 forward = afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward");
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, forward);
  guint n;

  afg_flame_layout_get_frames (layout, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (afg_flame_layout_get_zoom_row (layout), ==, 3);
  assert_frame (layout, 0, AFG_TREE_ROOT, 0, 0, 1);
  assert_frame (layout, 1, afg_gui_tree_node (f, "1/2"), 1, 0, 1);
  assert_frame (layout, 2, afg_gui_tree_node (f, "1/2;main.py(1): run"), 2, 0, 1);
  assert_frame (layout, 3, forward, 3, 0, 1);
  assert_frame (layout, 4, afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm"), 4, 0, 0.5);
  g_assert_cmpuint (afg_flame_layout_get_node_parent (layout, afg_gui_tree_node (f, "1/2")), ==, AFG_TREE_ROOT);
  afg_flame_layout_free (layout);
}

static void
test_thread_view (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint32 thread = afg_gui_tree_node (f, "1/3");
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, thread, thread);
  guint n;

  afg_flame_layout_get_frames (layout, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_frame (layout, 0, thread, 0, 0, 1);
  assert_frame (layout, 1, afg_gui_tree_node (f, "1/3;acl_op"), 1, 0, 1);
  g_assert_cmpuint (afg_flame_layout_get_node_parent (layout, thread), ==, AFG_NODE_NONE);
  g_assert_false (afg_tree_is_descendant (f->tree, afg_gui_tree_node (f, "1/2"), thread));
  afg_flame_layout_free (layout);
}

static void
test_search (AfgGuiTreeFixture *f, gconstpointer data)
{
  g_autofree guint8 *matches = afg_flame_search_match (f->tree, "ATEN");
  g_autofree guint8 *none = afg_flame_search_match (f->tree, "no such frame");
  AfgFlameSearchResult result;

  g_assert_true (matches[afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add;aten::mul")]);
  g_assert_false (matches[afg_gui_tree_node (f, "1/2;main.py(1): run")]);
  /* aten::mul sits inside aten::add: counted as a match, not as time. */
  afg_flame_search_summarize (f->tree, AFG_COLUMN_TOTAL_NS, matches, AFG_TREE_ROOT, &result);
  g_assert_cmpuint (result.n_matches, ==, 3);
  g_assert_cmpint (result.matched_ns, ==, 500);
  g_assert_cmpint (result.view_ns, ==, 1500);
  afg_flame_search_summarize (f->tree, AFG_COLUMN_TOTAL_NS, matches,
                              afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward"), &result);
  g_assert_cmpuint (result.n_matches, ==, 1);
  g_assert_cmpint (result.matched_ns, ==, 200);
  g_assert_cmpint (result.view_ns, ==, 400);
  afg_flame_search_summarize (f->tree, AFG_COLUMN_TOTAL_NS, none, AFG_TREE_ROOT, &result);
  g_assert_cmpuint (result.n_matches, ==, 0);
  g_assert_cmpint (result.matched_ns, ==, 0);
}

/* As the page's toLowerCase(): case is ignored past ASCII too, and the
 * thread frames' "pid/tid" labels are not names to match. */
static void
test_search_unicode (void)
{
  static const AfgTestEvent events[] = {
    { G_GINT64_CONSTANT (4294967298), 0, 100, "\xc3\x9c" "berhaupt" },  /* Ü */
    { G_GINT64_CONSTANT (4294967298), 100, 200, "\xce\xa3\xce\x8a\xce\xa3\xce\xa5\xce\xa6\xce\x9f\xce\xa3" },
    { G_GINT64_CONSTANT (4294967298), 200, 300, "plain" },
  };
  g_autoptr(AfgTree) tree = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  static const char * const hits[][2] = {
    { "\xc3\xbc" "berhaupt", "\xc3\x9c" "berhaupt" },                  /* ü finds Ü */
    { "\xcf\x83\xce\xaf\xcf\x83", "\xce\xa3\xce\x8a\xce\xa3\xce\xa5\xce\xa6\xce\x9f\xce\xa3" },  /* σίσ */
    { "PLAIN", "plain" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (hits); k++)
    {
      g_autofree guint8 *matches = afg_flame_search_match (tree, hits[k][0]);
      guint n = 0;

      for (guint i = 0; i < afg_tree_get_n_nodes (tree); i++)
        if (matches[i])
          {
            g_assert_cmpstr (afg_tree_get_node_name (tree, i), ==, hits[k][1]);
            n++;
          }
      g_assert_cmpuint (n, ==, 1);
    }
  for (const char * const *label = (const char * const[]) { "1/", "/2", "1/2", NULL }; *label != NULL; label++)
    {
      g_autofree guint8 *matches = afg_flame_search_match (tree, *label);

      for (guint i = 0; i < afg_tree_get_n_nodes (tree); i++)
        g_assert_false (matches[i]);
    }
}

/* F3's order: depth first, children in order (aten::mul inside
 * aten::add before aten::mm); and how far a step zooms out: aten::mul
 * (100 of 1500 ns) is 6.7 px wide in a 100 px view of all threads, 0.67
 * px in a 10 px one, where only its parent (300 ns) shows it 3 px wide. */
static void
test_search_steps (AfgGuiTreeFixture *f, gconstpointer data)
{
  g_autofree guint8 *matches = afg_flame_search_match (f->tree, "aten");
  g_autoptr(GArray) list = afg_flame_search_list (f->tree, matches, AFG_TREE_ROOT);
  g_autoptr(GArray) in_forward = NULL;
  guint32 forward = afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward");
  guint32 add = afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add");
  guint32 mul = afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add;aten::mul");
  guint32 mm = afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm");

  g_assert_cmpuint (list->len, ==, 3);
  g_assert_cmpuint (g_array_index (list, guint32, 0), ==, add);
  g_assert_cmpuint (g_array_index (list, guint32, 1), ==, mul);
  g_assert_cmpuint (g_array_index (list, guint32, 2), ==, mm);
  in_forward = afg_flame_search_list (f->tree, matches, forward);
  g_assert_cmpuint (in_forward->len, ==, 1);
  g_assert_cmpuint (g_array_index (in_forward, guint32, 0), ==, mm);
  g_assert_cmpuint (afg_flame_search_reveal_root (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, mul, 100, 3), ==,
                    AFG_TREE_ROOT);
  g_assert_cmpuint (afg_flame_search_reveal_root (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, mul, 10, 3), ==, add);
  g_assert_cmpuint (afg_flame_search_reveal_root (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, mul, 2, 3), ==, mul);
}

/* In compute, comm and exposed the leaves follow their frame's children,
 * in the row above it, as wide as their value in the weight, and what is
 * on no leaf stays the frame's own time (`--kernels`): every leaf that
 * weighs anything is drawn, nowhere wider than the frame's self time. */
static void
assert_leaves (AfgTree *tree, AfgWeight weight)
{
  AfgFlameLayout *layout = afg_flame_layout_new (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT, AFG_TREE_ROOT);
  double scale = afg_tree_get_value (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT);
  guint n_leaves, n_frames, expected = 0;
  const AfgFlameLeaf *leaves = afg_flame_layout_get_leaves (layout, &n_leaves);
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (layout, &n_frames);

  for (guint32 node = 0; node < afg_tree_get_n_nodes (tree); node++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, node, &n);

      for (guint j = 0; j < n; j++)
        expected += afg_weight_kernel_value (weight, &k[j]) > 0;
    }
  g_test_message ("%s: %u leaves", afg_weight_to_string (weight), n_leaves);
  g_assert_cmpuint (n_leaves, ==, expected);
  g_assert_cmpuint (n_leaves, >, 0);
  for (guint i = 0; i < n_leaves; i++)
    {
      const AfgFlameLeaf *leaf = &leaves[i];
      const AfgFlameFrame *parent = &frames[afg_flame_layout_find_node (layout, leaf->node)];
      guint n;
      const AfgNpuKernel *k = &afg_tree_get_kernels (tree, leaf->node, &n)[leaf->kernel];
      double own = afg_tree_get_value (tree, afg_weight_get_self_column (weight), leaf->node) / scale;

      g_assert_cmpuint (leaf->row, ==, parent->row + 1);
      g_assert_cmpfloat_with_epsilon (leaf->width, afg_weight_kernel_value (weight, k) / scale, 1e-12);
      g_assert_cmpfloat (leaf->x + leaf->width, <=, parent->x + parent->width + 1e-9);
      g_assert_cmpfloat (leaf->width, <=, own + 1e-9);
      g_assert_cmpuint (afg_flame_layout_hit_leaf (layout, leaf->row, leaf->x + leaf->width / 2, 0), ==, i);
      g_assert_cmpuint (leaf->row, <, afg_flame_layout_get_n_rows (layout));
      /* Sorted by (row, x): a binary search finds each. */
      if (i > 0)
        g_assert_true (leaves[i - 1].row < leaf->row
                       || (leaves[i - 1].row == leaf->row && leaves[i - 1].x + leaves[i - 1].width <= leaf->x + 1e-9));
    }
  afg_flame_layout_free (layout);
}

static void
test_leaves (void)
{
  g_autoptr(AfgTree) tree = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  AfgFlameLayout *npu = afg_flame_layout_new (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  guint n;

  assert_leaves (tree, AFG_WEIGHT_COMPUTE);
  assert_leaves (tree, AFG_WEIGHT_COMM);
  assert_leaves (tree, AFG_WEIGHT_EXPOSED);
  /* All device tasks and host time have no leaves. */
  afg_flame_layout_get_leaves (npu, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (afg_flame_layout_hit_leaf (npu, 1, 0.5, 0), ==, AFG_FLAME_NO_FRAME);
  afg_flame_layout_free (npu);
}

static void
test_colors (void)
{
  AfgFlameColor c, d;

  /* FNV-1a 32-bit reference values. */
  g_assert_cmpuint (afg_flame_hash_name (""), ==, 0x811c9dc5u);
  g_assert_cmpuint (afg_flame_hash_name ("a"), ==, 0xe40c292cu);
  g_assert_cmpuint (afg_flame_hash_name ("foobar"), ==, 0xbf9cf968u);

  afg_flame_color_for_name ("x.py", AFG_CATEGORY_PYTHON, &c);
  g_assert_true (c.blue > c.green && c.green > c.red);
  afg_flame_color_for_name ("aten::add", AFG_CATEGORY_PYTHON_FRAMEWORK, &c);
  g_assert_true (c.red > c.green && c.green > c.blue);
  afg_flame_color_for_name ("aclnnAdd", AFG_CATEGORY_CANN, &c);
  g_assert_true (c.green > c.red && c.green > c.blue);
  afg_flame_color_for_name ("other", AFG_CATEGORY_UNKNOWN, &c);
  g_assert_cmpfloat (c.red, ==, c.green);
  g_assert_cmpfloat (c.green, ==, c.blue);
  /* "a" (FNV-1a 0xe40c292c, lightness step 0 of 20 → 55%): hue 200,
   * saturation 65%. */
  afg_flame_color_for_name ("a", AFG_CATEGORY_PYTHON, &c);
  g_assert_cmpfloat_with_epsilon (c.red, 0.2575, 1e-3);
  g_assert_cmpfloat_with_epsilon (c.green, 0.6475, 1e-3);
  g_assert_cmpfloat_with_epsilon (c.blue, 0.8425, 1e-3);
  /* "b" (0xe70c2de5, step 17 → 72%): the same hue, a lighter shade. */
  afg_flame_color_for_name ("b", AFG_CATEGORY_PYTHON, &d);
  g_assert_cmpfloat_with_epsilon (d.red, 0.5380, 1e-3);
  g_assert_cmpfloat_with_epsilon (d.green, 0.7807, 1e-3);
  g_assert_cmpfloat_with_epsilon (d.blue, 0.9020, 1e-3);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/flame-layout/all-threads", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_all_threads, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/hit-test", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_hit_test, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/navigation", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_navigation, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/zoom", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_zoom, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/thread-view", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_thread_view, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/search", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_search, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-layout/search-steps", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_search_steps, afg_gui_tree_fixture_tear_down);
  g_test_add_func ("/flame-layout/search-unicode", test_search_unicode);
  g_test_add_func ("/flame-layout/colors", test_colors);
  g_test_add_func ("/flame-layout/leaves", test_leaves);
  return g_test_run ();
}
