/* SPDX-License-Identifier: MIT */
/* The header bar stays readable down to 640 px: the title never overlaps
 * the thread picker, the search entry or a button, nothing is pushed out
 * of the window, and at 1000 px the title is whole. Run once in English
 * and once in zh_CN (AFG_LOCALEDIR points at the built translation). Also:
 * the menu's "Flip Orientation" is unchecked in the default orientation. */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "afg-gui-test-tree.h"
#include "afg-diff-options.h"
#include "afg-window-private.h"

#define TITLE "ascend_pytorch_profiler_0.db"

static void
settle (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* The header's width: the window's, less the frame GTK draws around it.
 * A header whose minimum is wider than asked would widen the window. */
static int
header_width (AfgWindow *window, int width)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (window));
  int got;

  settle ();
  got = gtk_widget_get_width (header);
  g_test_message ("asked for %d px, header %d px", width, got);
  g_assert_cmpint (got, <=, width);
  g_assert_cmpint (got, >=, width - 40);
  return got;
}

static void
collect (GtkWidget *widget, GtkWidget *title, GPtrArray *found)
{
  if (widget == title || !gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_BUTTON (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SEARCH_ENTRY (widget)
      || GTK_IS_MENU_BUTTON (widget) || GTK_IS_LABEL (widget))
    {
      g_ptr_array_add (found, widget);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect (c, title, found);
}

static void
assert_no_overlap (AfgWindow *window, int asked)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *title = gtk_header_bar_get_title_widget (GTK_HEADER_BAR (header));
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  int width = header_width (window, asked);
  graphene_rect_t t, o;

  g_assert_true (gtk_widget_compute_bounds (title, header, &t));
  g_test_message ("%d px: title at %.0f, %.0f px wide", width, t.origin.x, t.size.width);
  g_assert_cmpfloat (t.size.width, >=, 80);
  collect (header, title, others);
  g_assert_cmpuint (others->len, >=, 5);
  for (guint i = 0; i < others->len; i++)
    {
      g_assert_true (gtk_widget_compute_bounds (others->pdata[i], header, &o));
      g_test_message ("  %s at %.0f, %.0f px wide", G_OBJECT_TYPE_NAME (others->pdata[i]),
                      o.origin.x, o.size.width);
      g_assert_false (graphene_rect_intersection (&t, &o, NULL));
      g_assert_cmpfloat (o.origin.x, >=, 0);
      g_assert_cmpfloat (o.origin.x + o.size.width, <=, width);
    }
}

static AfgWindow *
show_window (AfgGuiTreeFixture *f, int width)
{
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, "default-width", width,
                                    "default-height", 480, NULL);

  _afg_window_show_profile (window, f->tree, NULL);
  gtk_window_set_title (GTK_WINDOW (window), TITLE);
  gtk_window_present (GTK_WINDOW (window));
  while (afg_flame_view_is_busy (window->flame_view)
         || !gtk_widget_get_mapped (GTK_WIDGET (window->flame_view)))
    g_main_context_iteration (NULL, TRUE);
  return window;
}

static void
test_header_widths (AfgGuiTreeFixture *f, gconstpointer data)
{
  for (int width = 1000; width >= 640; width -= 120)
    {
      AfgWindow *window = show_window (f, width);
      GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (window));
      GtkLabel *title = GTK_LABEL (gtk_header_bar_get_title_widget (GTK_HEADER_BAR (header)));

      assert_no_overlap (window, width);
      g_assert_cmpstr (gtk_label_get_text (title), ==, TITLE);
      /* Whole at 1000 px, the width the zh_CN title was cut at. */
      if (width == 1000)
        g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (title)));
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

static gboolean
menu_has_action (GMenuModel *menu, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name)
          && g_strcmp0 (name, action) == 0)
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

static GtkWidget *
find_of_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_of_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A diff of the two samples: the options button joins the header, the
 * thread picker leaves it, the title is both names. */
static void
test_diff_header_widths (void)
{
  g_autofree char *a = afg_test_sample_path ("ascend_pytorch_profiler_level0_rank0", ".db");
  g_autofree char *b = afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", ".db");
  g_autoptr(GFile) file_a = g_file_new_for_path (a);
  g_autoptr(GFile) file_b = g_file_new_for_path (b);

  for (int width = 1000; width >= 640; width -= 120)
    {
      AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, "default-width", width, "default-height", 480, NULL);

      gtk_window_present (GTK_WINDOW (window));
      afg_window_compare (window, file_a, file_b);
      while (g_strcmp0 (gtk_stack_get_visible_child_name (window->stack), "graph") != 0
             || afg_flame_view_is_busy (window->flame_view)
             || !gtk_widget_get_mapped (GTK_WIDGET (window->flame_view)))
        g_main_context_iteration (NULL, TRUE);
      g_assert_true (gtk_widget_get_mapped (find_of_type (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                                          AFG_TYPE_DIFF_OPTIONS)));
      g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->thread_dropdown)));
      assert_no_overlap (window, width);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* The one with a menu: a diff's options button holds a popover. */
static GtkMenuButton *
find_menu_button (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)) != NULL)
    return GTK_MENU_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkMenuButton *found = find_menu_button (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The menu item shows the state of win.flip-orientation, the "icicle"
 * property: unchecked in the default flame orientation. */
static void
test_flip_orientation (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgWindow *window = show_window (f, 800);
  GtkMenuButton *menu = find_menu_button (gtk_window_get_titlebar (GTK_WINDOW (window)));
  gboolean icicle = TRUE;

  g_assert_nonnull (menu);
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (menu), "win.flip-orientation"));
  g_object_get (window, "icicle", &icicle, NULL);
  g_assert_false (icicle);
  g_assert_false (afg_flame_view_get_icicle (window->flame_view));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.flip-orientation", NULL);
  g_object_get (window, "icicle", &icicle, NULL);
  g_assert_true (icicle);
  g_assert_true (afg_flame_view_get_icicle (window->flame_view));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkButton *
find_action_button (GtkWidget *widget, const char *action)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return GTK_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkButton *found = find_action_button (c, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Reset Zoom shows "fit", not zoom-original's "1:1", which reads as "1". */
static void
test_reset_zoom_icon (AfgGuiTreeFixture *f, gconstpointer data)
{
  AfgWindow *window = show_window (f, 800);
  GtkButton *reset = find_action_button (gtk_window_get_titlebar (GTK_WINDOW (window)), "win.reset-zoom");

  g_assert_nonnull (reset);
  g_assert_cmpstr (gtk_button_get_icon_name (reset), ==, "zoom-fit-best-symbolic");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  const char *localedir = g_getenv ("AFG_LOCALEDIR");

  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init keeps the C locale; the zh_CN run needs LC_ALL's. */
  setlocale (LC_ALL, "");
  if (localedir != NULL)
    bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_test_message ("\"Thread\" is \"%s\" here", _("Thread"));
  g_test_add ("/window/header-widths", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_header_widths, afg_gui_tree_fixture_tear_down);
  g_test_add_func ("/window/diff-header-widths", test_diff_header_widths);
  g_test_add ("/window/flip-orientation", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_flip_orientation, afg_gui_tree_fixture_tear_down);
  g_test_add ("/window/reset-zoom-icon", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_reset_zoom_icon, afg_gui_tree_fixture_tear_down);
  return g_test_run ();
}
