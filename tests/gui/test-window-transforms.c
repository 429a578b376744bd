/* SPDX-License-Identifier: MIT */
/* The window keeps each file's transforms while it is open: another
 * file shows without them, and the first one gets its list back, applied
 * to the tree shown of it. */
#include "config.h"

#include <gtk/gtk.h>

#include "afg-gui-test-tree.h"
#include "afg-loader.h"
#include "afg-transform-list.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

/* Iterates until the tree shown was made by @n transforms (0: by none). */
static AfgTree *
wait_for_transforms (AfgWindow *window, guint n)
{
  for (;;)
    {
      AfgTree *tree = _afg_window_get_tree (window);
      const AfgTransformList *list = tree ? afg_tree_get_transforms (tree) : NULL;

      if ((list ? afg_transform_list_get_length (list) : 0) == n)
        return tree;
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
test_per_file (void)
{
  g_autoptr(AfgTree) a = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgTree) b = afg_gui_test_load_sample ("ascend_pytorch_profiler_level0_rank0", AFG_TREE_MERGE_ADDRESSES);
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, NULL);
  AfgTree *shown;

  gtk_window_present (GTK_WINDOW (window));
  _afg_window_show_profile (window, a, NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.add-transform", "(ss)", "drop-function", "aten::to");
  shown = wait_for_transforms (window, 1);
  g_assert_cmpint (afg_tree_get_value (shown, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), <,
                   afg_tree_get_value (a, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));

  /* Another file: none of A's. */
  _afg_window_show_profile (window, b, NULL);
  shown = wait_for_transforms (window, 0);
  g_assert_true (shown == b);

  /* A again: its list, applied. */
  _afg_window_show_profile (window, a, NULL);
  shown = wait_for_transforms (window, 1);
  g_assert_cmpstr (afg_transform_list_get (afg_tree_get_transforms (shown), 0)->arg, ==, "aten::to");
  g_assert_true (afg_tree_get_document (shown) == afg_tree_get_document (a));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/window-transforms/per-file", test_per_file);
  return g_test_run ();
}
