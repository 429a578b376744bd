/* SPDX-License-Identifier: MIT */
/* AfgStepsBar's builds: a scope arrives as "scope-built", in a worker;
 * going back to the whole profile shows the whole-profile tree kept (the
 * load's, or the last one built) instead of building it again, while its
 * document and flags are the ones asked for; another document or the
 * bar hidden drops it. */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "afg-gui-test-tree.h"
#include "afg-steps-bar.h"
#include "afg-tree-builder.h"

typedef struct {
  AfgGuiTreeFixture  tree;
  AfgSession        *session;
  AfgStepsBar       *bar;
  GMainLoop         *loop;
  AfgTree           *built;  /* the last "scope-built" tree */
} Fixture;

static void
on_scope_built (AfgStepsBar *bar, AfgTree *tree, Fixture *f)
{
  g_clear_pointer (&f->built, afg_tree_unref);
  f->built = afg_tree_ref (tree);
  g_main_loop_quit (f->loop);
}

static void
set_up (Fixture *f, gconstpointer data)
{
  afg_gui_tree_fixture_set_up (&f->tree, data);
  f->session = afg_session_new ();
  f->bar = g_object_ref_sink (g_object_new (AFG_TYPE_STEPS_BAR, "session", f->session, NULL));
  f->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (f->bar, "scope-built", G_CALLBACK (on_scope_built), f);
}

static void
tear_down (Fixture *f, gconstpointer data)
{
  g_clear_pointer (&f->built, afg_tree_unref);
  g_clear_object (&f->bar);
  g_clear_object (&f->session);
  g_main_loop_unref (f->loop);
  afg_gui_tree_fixture_tear_down (&f->tree, data);
}

/* The tree that arrives for @scope of @document. */
static AfgTree *
build (Fixture *f, AfgDocument *document, const AfgScope *scope)
{
  g_clear_pointer (&f->built, afg_tree_unref);
  afg_steps_bar_build (f->bar, document, scope);
  g_main_loop_run (f->loop);
  g_assert_nonnull (f->built);
  return f->built;
}

/* A whole-profile tree as the window's load makes it. */
static AfgTree *
load_whole (Fixture *f, AfgDocument *document)
{
  AfgTreeFlags flags = afg_session_get_tree_flags (f->session) | AFG_TREE_DURATIONS;

  return afg_tree_build (document, NULL, flags, NULL, NULL);
}

static void
test_whole_kept (Fixture *f, gconstpointer data)
{
  AfgDocument *document = afg_tree_get_document (f->tree.tree);
  g_autoptr(AfgTree) loaded = load_whole (f, document);
  AfgScope whole = { 0 };
  AfgScope range = { .bounded = TRUE, .start_ns = 0, .end_ns = 500 };
  AfgTree *merged;

  afg_steps_bar_show_document (f->bar, document);
  afg_steps_bar_keep_whole (f->bar, loaded);
  g_assert_true (build (f, document, &whole) == loaded);
  g_assert_true (build (f, document, &range) != loaded);
  g_assert_true (afg_tree_get_scope (f->built)->bounded);
  g_assert_true (build (f, document, &whole) == loaded);

  /* Other flags: built, and then that one is kept. */
  afg_session_set_merge_addresses (f->session, !afg_session_get_merge_addresses (f->session));
  merged = build (f, document, &whole);
  g_assert_true (merged != loaded);
  g_assert_cmpuint (afg_tree_get_flags (merged), ==, afg_session_get_tree_flags (f->session) | AFG_TREE_DURATIONS);
  afg_tree_ref (merged);
  g_assert_true (build (f, document, &range) != merged);
  g_assert_true (build (f, document, &whole) == merged);
  afg_tree_unref (merged);
}

/* The kept tree is its document's only, and not kept past a hide. */
static void
test_whole_dropped (Fixture *f, gconstpointer data)
{
  AfgDocument *document = afg_tree_get_document (f->tree.tree);
  g_autoptr(AfgTree) loaded = load_whole (f, document);
  AfgTestDb *other_db = afg_gui_test_tree_new ();
  g_autoptr(AfgTree) other = afg_test_db_load (other_db);
  AfgScope whole = { 0 };

  afg_steps_bar_show_document (f->bar, document);
  afg_steps_bar_keep_whole (f->bar, loaded);
  afg_steps_bar_show_document (f->bar, afg_tree_get_document (other));
  afg_steps_bar_show_document (f->bar, document);
  g_assert_true (build (f, document, &whole) != loaded);

  afg_steps_bar_keep_whole (f->bar, loaded);
  afg_steps_bar_hide (f->bar);
  afg_steps_bar_show_document (f->bar, document);
  g_assert_true (build (f, document, &whole) != loaded);
  g_clear_pointer (&other, afg_tree_unref);
  afg_test_db_free (other_db);
}

/* The status line's split: a reversed step (a hostile DB's) adds nothing
 * to the window its shares divide, so they add up to 100 %; a usable TASK
 * table without one usable row and without steps gives no split, as the
 * command line prints none. */
static void
test_device_split (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  AfgTestDb *bare = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgSession) session = afg_session_new ();
  g_autoptr(AfgStepsBar) bar = g_object_ref_sink (g_object_new (AFG_TYPE_STEPS_BAR, "session", session, NULL));
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) bare_tree = NULL;
  g_autofree char *text = NULL;
  g_autofree char *bare_text = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 1000, "f");
  afg_test_db_add_typed_task (db, 0, 500, AFG_TEST_NO_LINK, "AI_CORE");
  afg_test_db_add_step_time (db, 1, 0, 1000);
  afg_test_db_add_step_time (db, 2, 2000, 1900);
  tree = afg_test_db_load (db);
  afg_session_set_tree (session, tree);
  text = afg_steps_bar_describe (bar);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "NPU: compute 50.0%, communication 0.0%, other 0.0%, free 50.0%"));

  afg_test_db_add (bare, GTID (1, 1), 0, 1000, "f");
  bare_tree = afg_test_db_load (bare);
  afg_session_set_tree (session, bare_tree);
  bare_text = afg_steps_bar_describe (bar);
  g_assert_true (bare_text == NULL || strstr (bare_text, "NPU:") == NULL);
  afg_session_set_tree (session, NULL);
  afg_test_db_free (db);
  afg_test_db_free (bare);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/steps-bar/whole-kept", Fixture, NULL, set_up, test_whole_kept, tear_down);
  g_test_add_func ("/steps-bar/device-split", test_device_split);
  g_test_add ("/steps-bar/whole-dropped", Fixture, NULL, set_up, test_whole_dropped, tear_down);

  return g_test_run ();
}
