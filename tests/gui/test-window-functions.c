/* SPDX-License-Identifier: MIT */
/* The Functions panel in a real window: it opens wide enough for the
 * names of its first rows (none ellipsized), keeps the width its edge is
 * dragged to (GSettings, here the memory backend), has a band between
 * the sandwich's callers and callees, and a function picked in it is
 * brought into view in the graph (the zoom widened until its widest
 * frame is a few pixels wide). */
#include "config.h"

#include <gtk/gtk.h>

#include "afg-test-db.h"
#include "afg-window-private.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)
#define LONG_A "aten::a_long_operator_name_to_read"
#define LONG_B "aten::another_long_name_in_the_table"
#define SMALL "tiny_function"

/* Two long names with the most self time; SMALL, 10 ns of 1,000,000,
 * under LONG_A: under a pixel wide in the whole view. */
static AfgTree *
make_tree (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 600000, "main" }, { T1, 0, 500000, LONG_A }, { T1, 100, 110, SMALL },
    { T2, 0, 400000, LONG_B },
  };

  return afg_test_load_events (AFG_TEST_DB_DEFAULT, events, G_N_ELEMENTS (events));
}

static void
settle (AfgWindow *window)
{
  for (guint i = 0; i < 3; i++)
    {
      while (afg_flame_view_is_busy (window->flame_view))
        g_main_context_iteration (NULL, TRUE);
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
    }
}

static AfgWindow *
show_window (AfgTree *tree)
{
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 720);
  _afg_window_show_profile (window, tree, NULL);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window->flame_view)))
    g_main_context_iteration (NULL, TRUE);
  settle (window);
  return window;
}

static void
open_panel (AfgWindow *window)
{
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-functions", NULL);
  while (gtk_widget_get_width (GTK_WIDGET (afg_functions_pane_get_panel (window->functions_pane))) == 0)
    g_main_context_iteration (NULL, TRUE);
  settle (window);
}

/* Every label in @widget whose text is @text; their count. */
static guint
count_ellipsized (GtkWidget *widget, const char *text, guint *found)
{
  guint ellipsized = 0;

  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0
      && gtk_widget_get_mapped (widget))
    {
      (*found)++;
      return pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget)));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    ellipsized += count_ellipsized (c, text, found);
  return ellipsized;
}

static void
test_width (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgWindow *window = show_window (tree);
  int width;
  guint found = 0;

  open_panel (window);
  width = gtk_widget_get_width (gtk_paned_get_end_child (afg_functions_pane_get_paned (window->functions_pane)));
  g_test_message ("panel %d px of %d", width, gtk_widget_get_width (GTK_WIDGET (afg_functions_pane_get_paned (window->functions_pane))));
  g_assert_cmpuint (count_ellipsized (GTK_WIDGET (afg_functions_pane_get_panel (window->functions_pane)), LONG_A, &found), ==, 0);
  g_assert_cmpuint (count_ellipsized (GTK_WIDGET (afg_functions_pane_get_panel (window->functions_pane)), LONG_B, &found), ==, 0);
  g_assert_cmpuint (found, ==, 2);
  g_assert_cmpint (width, <=, gtk_widget_get_width (GTK_WIDGET (afg_functions_pane_get_paned (window->functions_pane))) / 2 + 1);

  /* The edge dragged: a new window opens the panel as wide. */
  gtk_paned_set_position (afg_functions_pane_get_paned (window->functions_pane), gtk_widget_get_width (GTK_WIDGET (afg_functions_pane_get_paned (window->functions_pane))) - 700);
  settle (window);
  gtk_window_destroy (GTK_WINDOW (window));
  window = show_window (tree);
  open_panel (window);
  g_assert_cmpint (ABS (gtk_widget_get_width (GTK_WIDGET (afg_functions_pane_get_paned (window->functions_pane)))
                        - gtk_paned_get_position (afg_functions_pane_get_paned (window->functions_pane)) - 700), <=, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_view (GtkWidget *widget, AfgFlameView *view)
{
  if (widget == GTK_WIDGET (view))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_view (c, view))
      return TRUE;
  return FALSE;
}

/* The band sits right between the half that holds the callers and the
 * half that holds the callees, and is taller than a line. */
static void
test_divider (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgWindow *window = show_window (tree);
  GtkWidget *callers = GTK_WIDGET (afg_function_panel_get_callers (afg_functions_pane_get_panel (window->functions_pane)));
  GtkWidget *half = callers;
  GtkWidget *divider;
  int height;

  open_panel (window);
  while (!gtk_widget_get_parent (half) || !GTK_IS_BOX (gtk_widget_get_parent (half)))
    half = gtk_widget_get_parent (half);
  divider = gtk_widget_get_next_sibling (half);
  g_assert_true (gtk_widget_has_css_class (divider, "sandwich-divider"));
  g_assert_true (GTK_IS_LABEL (divider) && gtk_label_get_text (GTK_LABEL (divider))[0] != '\0');
  g_assert_true (has_view (gtk_widget_get_next_sibling (divider), afg_function_panel_get_callees (afg_functions_pane_get_panel (window->functions_pane))));
  gtk_widget_measure (divider, GTK_ORIENTATION_VERTICAL, -1, &height, NULL, NULL, NULL);
  g_assert_cmpint (height, >=, 12);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widest frame of @name in the layout shown, in pixels (0: none). */
static double
shown_width (AfgWindow *window, const char *name)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (window->flame_view);
  AfgTree *tree = afg_flame_layout_get_tree (layout);
  guint n;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (layout, &n);
  double widest = 0;

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (afg_tree_get_node_name (tree, frames[i].node), name) == 0)
      widest = MAX (widest, frames[i].width * gtk_widget_get_width (GTK_WIDGET (window->flame_view)));
  return widest;
}

/* Zoomed into LONG_B's thread, a pick of LONG_A widens the zoom to show
 * it; SMALL, under a pixel in the whole view, gets a zoom of its own. */
static void
test_pick_reveals (void)
{
  g_autoptr(AfgTree) tree = make_tree ();
  AfgWindow *window = show_window (tree);

  open_panel (window);
  afg_flame_view_zoom_to (window->flame_view, afg_tree_get_thread (tree, 1)->node);
  settle (window);
  g_assert_cmpfloat (shown_width (window, LONG_A), ==, 0);
  afg_function_panel_select (afg_functions_pane_get_panel (window->functions_pane), LONG_A);
  settle (window);
  g_assert_cmpfloat (shown_width (window, LONG_A), >=, 3);
  g_assert_cmpfloat (shown_width (window, SMALL), <, 3);
  afg_function_panel_select (afg_functions_pane_get_panel (window->functions_pane), SMALL);
  settle (window);
  g_assert_cmpfloat (shown_width (window, SMALL), >=, 3);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/window-functions/width", test_width);
  g_test_add_func ("/window-functions/divider", test_divider);
  g_test_add_func ("/window-functions/pick-reveals", test_pick_reveals);
  return g_test_run ();
}
