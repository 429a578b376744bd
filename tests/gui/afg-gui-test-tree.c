/* SPDX-License-Identifier: MIT */
#include "afg-gui-test-tree.h"

AfgTestDb *
afg_gui_test_tree_new (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 2), 0, 1000, "main.py(1): run" },
    { GTID (1, 2), 100, 400, "aten::add" },
    { GTID (1, 2), 150, 250, "aten::mul" },
    { GTID (1, 2), 500, 900, "torch/nn.py(5): forward" },
    { GTID (1, 2), 600, 800, "aten::mm" },
    { GTID (1, 3), 0, 500, "acl_op" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  return db;
}

void
afg_gui_tree_fixture_set_up (AfgGuiTreeFixture *f, gconstpointer data)
{
  f->db = afg_gui_test_tree_new ();
  f->tree = afg_test_db_load (f->db);
}

void
afg_gui_tree_fixture_tear_down (AfgGuiTreeFixture *f, gconstpointer data)
{
  afg_tree_unref (f->tree);
  afg_test_db_free (f->db);
}

guint32
afg_gui_tree_node (AfgGuiTreeFixture *f, const char *path)
{
  guint32 n = afg_test_find_node (f->tree, path);

  g_assert_cmpuint (n, !=, AFG_NODE_NONE);
  return n;
}

AfgTree *
afg_gui_test_load_sample (const char *name, AfgTreeFlags flags)
{
  g_autofree char *path = afg_test_sample_path (name, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return afg_test_build (document, NULL, flags);
}
