/* SPDX-License-Identifier: MIT */
/* AfgStatusBar on its own, with a session and a steps bar: a refresh
 * writes the session's tree's line (its scope and NPU time first, then
 * the rows and frames loaded); a section's text stays over it until the
 * next refresh, also when a comparison's tree comes; the frame selected
 * is named with its total and share in the session's column, or hidden;
 * the search's count and a diff's legend go where the window had them. */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "afg-flame-view.h"
#include "afg-gui-test-tree.h"
#include "afg-status-bar.h"

typedef struct {
  AfgGuiTreeFixture  tree;
  AfgSession        *session;
  AfgStepsBar       *steps_bar;
  AfgStatusBar      *bar;
} Fixture;

static void
set_up (Fixture *f, gconstpointer data)
{
  afg_gui_tree_fixture_set_up (&f->tree, data);
  f->session = afg_session_new ();
  f->steps_bar = g_object_ref_sink (g_object_new (AFG_TYPE_STEPS_BAR, "session", f->session, NULL));
  f->bar = g_object_ref_sink (g_object_new (AFG_TYPE_STATUS_BAR, "steps-bar", f->steps_bar, NULL));
  afg_status_bar_set_session (f->bar, f->session);
}

static void
tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->bar);
  g_clear_object (&f->steps_bar);
  g_clear_object (&f->session);
  afg_gui_tree_fixture_tear_down (&f->tree, data);
}

/* The known tree's line: 6 rows, 2 threads, 6 frames; no steps, no NPU. */
static char *
known_line (AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);

  return g_strdup_printf ("%s — 6 rows used, 0 skipped · 2 threads · 6 frames · 0 partial overlaps · loaded in %.2f s",
                          afg_document_get_source_name (document), afg_document_get_load_seconds (document));
}

/* The i-th widget of the bar's row. */
static GtkWidget *
row_child (Fixture *f, guint i)
{
  GtkWidget *child = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (f->bar)));

  for (; i > 0 && child != NULL; i--)
    child = gtk_widget_get_next_sibling (child);
  g_assert_nonnull (child);
  return child;
}

static void
test_profile (Fixture *f, gconstpointer data)
{
  g_autofree char *line = known_line (f->tree.tree);

  afg_session_set_tree (f->session, f->tree.tree);
  g_assert_cmpstr (afg_status_bar_get_text (f->bar), ==, "");
  afg_status_bar_refresh (f->bar);
  g_assert_cmpstr (afg_status_bar_get_text (f->bar), ==, line);
}

/* A section's text lasts until the window asks for the tree's line
 * again; a new tree is not enough. */
static void
test_override (Fixture *f, gconstpointer data)
{
  g_autoptr(AfgTree) again = afg_test_db_load (f->tree.db);
  g_autofree char *line = NULL;

  afg_session_set_tree (f->session, f->tree.tree);
  afg_status_bar_refresh (f->bar);
  afg_status_bar_set_text (f->bar, "A: a.db (1 s) → B: b.db (2 s)");
  g_assert_cmpstr (afg_status_bar_get_text (f->bar), ==, "A: a.db (1 s) → B: b.db (2 s)");
  afg_session_set_comparing (f->session, TRUE);
  afg_session_set_tree (f->session, again);
  g_assert_cmpstr (afg_status_bar_get_text (f->bar), ==, "A: a.db (1 s) → B: b.db (2 s)");

  afg_session_set_comparing (f->session, FALSE);
  afg_session_set_tree (f->session, f->tree.tree);
  afg_status_bar_refresh (f->bar);
  line = known_line (f->tree.tree);
  g_assert_cmpstr (afg_status_bar_get_text (f->bar), ==, line);
}

static void
test_selection (Fixture *f, gconstpointer data)
{
  GtkWidget *label = row_child (f, 0);
  guint32 add = afg_gui_tree_node (&f->tree, "1/2;main.py(1): run;aten::add");

  afg_session_set_tree (f->session, f->tree.tree);
  g_assert_false (gtk_widget_get_visible (label));
  afg_status_bar_set_selection (f->bar, add);
  g_assert_true (gtk_widget_get_visible (label));
  /* 300 of the two threads' 1500 ns. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Selected: aten::add · 300 ns · 20.0% of all");

  /* "Per step" divides by the steps in scope: none here, so by one. */
  g_object_set (f->steps_bar, "per-step", TRUE, NULL);
  afg_status_bar_set_selection (f->bar, add);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Selected: aten::add · 300 ns / step · 20.0% of all");

  afg_status_bar_set_selection_text (f->bar, "Selected: aten::add · total 300 ns → 200 ns");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Selected: aten::add · total 300 ns → 200 ns");
  afg_status_bar_set_selection (f->bar, AFG_FLAME_NO_FRAME);
  g_assert_false (gtk_widget_get_visible (label));
}

/* Matches at the end of the row, a legend right after the status text. */
static void
test_matches_and_legend (Fixture *f, gconstpointer data)
{
  GtkWidget *legend = gtk_label_new ("legend");

  afg_status_bar_set_matches (f->bar, "3 matches · 12.5%");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (f, 2))), ==, "3 matches · 12.5%");
  afg_status_bar_add_legend (f->bar, legend);
  g_assert_true (row_child (f, 2) == legend);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (f, 3))), ==, "3 matches · 12.5%");
  afg_status_bar_set_matches (f->bar, "");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (f, 3))), ==, "");
}

/* A real DB with one step and NPU data: the scope and the device time
 * come before the load's figures. */
static void
test_sample (Fixture *f, gconstpointer data)
{
  g_autoptr(AfgTree) tree = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);
  const char *text;

  afg_session_set_tree (f->session, tree);
  afg_status_bar_refresh (f->bar);
  text = afg_status_bar_get_text (f->bar);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "all 1 step ("));
  g_assert_nonnull (strstr (text, " host time on all threads) · NPU: "));
  g_assert_nonnull (strstr (text, " · NPU "));
  g_assert_nonnull (strstr (text, " linked ("));
  g_assert_nonnull (strstr (text, " · ascend_pytorch_profiler_level1_rank0.db — "));
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add ("/status-bar/profile", Fixture, NULL, set_up, test_profile, tear_down);
  g_test_add ("/status-bar/override", Fixture, NULL, set_up, test_override, tear_down);
  g_test_add ("/status-bar/selection", Fixture, NULL, set_up, test_selection, tear_down);
  g_test_add ("/status-bar/matches-and-legend", Fixture, NULL, set_up, test_matches_and_legend, tear_down);
  g_test_add ("/status-bar/sample", Fixture, NULL, set_up, test_sample, tear_down);
  return g_test_run ();
}
