/* SPDX-License-Identifier: MIT */
/* AfgSession, the window's state without widgets: the column the widths
 * follow is the chosen weight only where the tree has it and no
 * comparison is shown, and each property notifies once per change; the
 * device weight chosen last is where Ctrl+N goes; the "weight" setting's
 * values are the weights' names. */
#include "config.h"

#include "afg-gui-test-tree.h"
#include "afg-loader.h"
#include "afg-session.h"
#include "afg-tree-builder.h"

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* @count lives as long as @session. */
static void
watch (AfgSession *session, const char *property, guint *count)
{
  g_autofree char *signal = g_strconcat ("notify::", property, NULL);

  g_signal_connect (session, signal, G_CALLBACK (count_notify), count);
}

static void
test_column (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint n_columns = 0, n_weights = 0;
  guint *columns = &n_columns, *weights = &n_weights;
  g_autoptr(AfgSession) session = afg_session_new ();
  g_autoptr(AfgTree) npu = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);

  watch (session, "column", columns);
  watch (session, "weight", weights);

  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  afg_session_set_weight (session, AFG_WEIGHT_NPU);
  afg_session_set_weight (session, AFG_WEIGHT_NPU);
  g_assert_cmpuint (*weights, ==, 1);
  /* No tree: host time, whatever was chosen. */
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 0);

  afg_session_set_tree (session, npu);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_NPU_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 1);
  /* A comparison weighs host time, and the choice is kept for after. */
  afg_session_set_comparing (session, TRUE);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  afg_session_set_comparing (session, FALSE);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_NPU_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 3);

  /* A tree without NPU time shows host time; the choice stays NPU. */
  g_assert_false (afg_tree_has_column (f->tree, AFG_COLUMN_NPU_TOTAL_NS));
  afg_session_set_tree (session, f->tree);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  g_assert_cmpint (afg_session_get_weight (session), ==, AFG_WEIGHT_NPU);
  g_assert_cmpint (afg_session_column_for (session, npu), ==, AFG_COLUMN_NPU_TOTAL_NS);
}

/* Every device weight has its column on the sample; the last one chosen
 * is kept while host time is shown (Ctrl+N goes back to it). */
static void
test_device_weight (void)
{
  guint n_devices = 0, *devices = &n_devices;
  g_autoptr(AfgSession) session = afg_session_new ();
  g_autoptr(AfgTree) npu = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);
  const AfgColumn expected[] = { AFG_COLUMN_TOTAL_NS, AFG_COLUMN_NPU_TOTAL_NS, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS,
                                 AFG_COLUMN_COMM_TOTAL_NS, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS };

  watch (session, "device-weight", devices);
  g_assert_cmpint (afg_session_get_device_weight (session), ==, AFG_WEIGHT_COMPUTE);
  afg_session_set_tree (session, npu);
  for (AfgWeight w = 0; w < AFG_N_WEIGHTS; w++)
    {
      afg_session_set_weight (session, w);
      g_assert_cmpint (afg_session_get_column (session), ==, expected[w]);
      g_assert_cmpint (afg_session_get_shown_weight (session), ==, w);
    }
  /* Host leaves it; npu, compute (after npu), comm and exposed change it. */
  g_assert_cmpuint (*devices, ==, 4);
  afg_session_set_weight (session, AFG_WEIGHT_COMM);
  afg_session_set_weight (session, AFG_WEIGHT_HOST);
  g_assert_cmpint (afg_session_get_device_weight (session), ==, AFG_WEIGHT_COMM);
  g_assert_cmpint (afg_session_get_shown_weight (session), ==, AFG_WEIGHT_HOST);
}

typedef struct {
  GPtrArray *nicks;  /* "VALUE=NICK" of the schema's Weight enum, in order */
  gboolean   in_weight;
} SchemaWeights;

static void
on_element (GMarkupParseContext *context, const char *element, const char **names, const char **values,
            gpointer data, GError **error)
{
  const char *id = NULL;
  const char *nick = NULL;
  const char *value = NULL;
  SchemaWeights *weights = data;

  g_markup_collect_attributes (element, names, values, NULL,
                               G_MARKUP_COLLECT_STRING | G_MARKUP_COLLECT_OPTIONAL, "id", &id,
                               G_MARKUP_COLLECT_STRING | G_MARKUP_COLLECT_OPTIONAL, "nick", &nick,
                               G_MARKUP_COLLECT_STRING | G_MARKUP_COLLECT_OPTIONAL, "value", &value,
                               G_MARKUP_COLLECT_INVALID);
  if (g_str_equal (element, "enum"))
    weights->in_weight = g_str_has_suffix (id, ".Weight");
  else if (g_str_equal (element, "value") && weights->in_weight)
    g_ptr_array_add (weights->nicks, g_strdup_printf ("%s=%s", value, nick));
}

/* The schema's enum and the GEnum name the same weights with the same
 * values, as the command line's --weight does. */
static void
test_setting_names (void)
{
  static const GMarkupParser parser = { on_element, NULL, NULL, NULL, NULL };
  g_autoptr(GEnumClass) enum_class = g_type_class_ref (AFG_TYPE_WEIGHT);
  g_autoptr(GPtrArray) nicks = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  SchemaWeights weights = { nicks, FALSE };

  g_assert_true (g_file_get_contents (AFG_TEST_SCHEMA_FILE, &text, NULL, &error));
  context = g_markup_parse_context_new (&parser, 0, &weights, NULL);
  g_assert_true (g_markup_parse_context_parse (context, text, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (nicks->len, ==, AFG_N_WEIGHTS);
  for (AfgWeight w = 0; w < AFG_N_WEIGHTS; w++)
    {
      g_autofree char *expected = g_strdup_printf ("%d=%s", w, afg_weight_to_string (w));
      AfgWeight parsed;

      g_assert_cmpstr (g_ptr_array_index (nicks, w), ==, expected);
      g_assert_cmpstr (g_enum_get_value (enum_class, w)->value_nick, ==, afg_weight_to_string (w));
      g_assert_true (afg_weight_from_string (g_enum_get_value (enum_class, w)->value_nick, &parsed));
      g_assert_cmpint (parsed, ==, w);
    }
}

/* The session holds a reference: the tree outlives its last other owner. */
static void
test_tree_ref (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint n_trees = 0, *trees = &n_trees;
  g_autoptr(AfgSession) session = afg_session_new ();
  AfgTree *tree = afg_tree_ref (f->tree);

  watch (session, "tree", trees);

  afg_session_set_tree (session, tree);
  afg_session_set_tree (session, tree);
  g_assert_cmpuint (*trees, ==, 1);
  afg_tree_unref (tree);
  g_assert_true (afg_session_get_tree (session) == f->tree);
  afg_session_set_tree (session, NULL);
  g_assert_null (afg_session_get_tree (session));
  g_assert_cmpuint (*trees, ==, 2);
}

/* document and scope follow the tree shown: each notifies when it
 * changes, not when a tree of the same document or scope comes. */
static void
test_document_scope (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint n_documents = 0, n_scopes = 0, *documents = &n_documents, *scopes = &n_scopes;
  g_autoptr(AfgSession) session = afg_session_new ();
  AfgDocument *document = afg_tree_get_document (f->tree);
  AfgScope range = { .bounded = TRUE, .start_ns = 100, .end_ns = 400 };
  g_autoptr(AfgTree) again = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, NULL);
  g_autoptr(AfgTree) scoped = afg_tree_build (document, &range, AFG_TREE_FLAGS_NONE, NULL, NULL);

  watch (session, "document", documents);
  watch (session, "scope", scopes);
  g_assert_null (afg_session_get_document (session));
  g_assert_null (afg_session_get_scope (session));

  afg_session_set_tree (session, f->tree);
  g_assert_true (afg_session_get_document (session) == document);
  g_assert_cmpuint (n_documents, ==, 1);
  g_assert_cmpuint (n_scopes, ==, 0);  /* the whole profile, as before */

  afg_session_set_tree (session, again);
  g_assert_cmpuint (n_documents, ==, 1);
  g_assert_cmpuint (n_scopes, ==, 0);

  afg_session_set_tree (session, scoped);
  g_assert_cmpuint (n_documents, ==, 1);
  g_assert_cmpuint (n_scopes, ==, 1);
  g_assert_true (afg_session_get_scope (session)->bounded);
  g_assert_cmpint (afg_session_get_scope (session)->end_ns, ==, 400);

  afg_session_set_tree (session, NULL);
  g_assert_cmpuint (n_documents, ==, 2);
  g_assert_cmpuint (n_scopes, ==, 2);
}

/* merge-addresses is on by default and gives the tree flags. */
static void
test_merge (void)
{
  guint n_merges = 0, *merges = &n_merges;
  g_autoptr(AfgSession) session = afg_session_new ();

  watch (session, "merge-addresses", merges);

  g_assert_cmpint (afg_session_get_tree_flags (session), ==, AFG_TREE_MERGE_ADDRESSES);
  g_object_set (session, "merge-addresses", FALSE, NULL);
  g_assert_cmpint (afg_session_get_tree_flags (session), ==, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (*merges, ==, 1);
}

/* The job folder open: one notification per change, the same GFile
 * again none, and NULL once the job is closed. */
static void
test_job_folder (void)
{
  guint n_folders = 0;
  guint *folders = &n_folders;
  g_autoptr(AfgSession) session = afg_session_new ();
  g_autoptr(GFile) job = g_file_new_for_path ("/tmp/job");
  g_autoptr(GFile) same = g_file_new_for_path ("/tmp/job");

  watch (session, "job-folder", folders);
  g_assert_null (afg_session_get_job_folder (session));
  afg_session_set_job_folder (session, job);
  g_assert_true (afg_session_get_job_folder (session) == job);
  afg_session_set_job_folder (session, job);
  g_assert_cmpuint (n_folders, ==, 1);
  afg_session_set_job_folder (session, same);
  g_assert_cmpuint (n_folders, ==, 2);
  afg_session_set_job_folder (session, NULL);
  g_assert_null (afg_session_get_job_folder (session));
  g_assert_cmpuint (n_folders, ==, 3);
}

/* The transforms applied: the session keeps its own reference, and
 * notifies once per list. */
static void
test_transforms (void)
{
  guint n_lists = 0;
  guint *lists = &n_lists;
  g_autoptr(AfgSession) session = afg_session_new ();
  AfgTransformList *list = afg_transform_list_new ();

  watch (session, "transforms", lists);
  g_assert_true (afg_transform_list_append (list, AFG_TRANSFORM_DROP_FUNCTION, "aten::to", NULL));
  afg_session_set_transforms (session, list);
  afg_session_set_transforms (session, list);
  afg_transform_list_unref (list);
  g_assert_cmpuint (n_lists, ==, 1);
  g_assert_cmpuint (afg_transform_list_get_length (afg_session_get_transforms (session)), ==, 1);
  afg_session_set_transforms (session, NULL);
  g_assert_null (afg_session_get_transforms (session));
  g_assert_cmpuint (n_lists, ==, 2);
}

/* The orientation, off (flames) at first: one notification per change. */
static void
test_icicle (void)
{
  guint n_changes = 0;
  guint *changes = &n_changes;
  g_autoptr(AfgSession) session = afg_session_new ();

  watch (session, "icicle", changes);
  g_assert_false (afg_session_get_icicle (session));
  afg_session_set_icicle (session, TRUE);
  afg_session_set_icicle (session, TRUE);
  g_assert_true (afg_session_get_icicle (session));
  g_assert_cmpuint (n_changes, ==, 1);
  g_object_set (session, "icicle", FALSE, NULL);
  g_assert_cmpuint (n_changes, ==, 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/session/column", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_column,
              afg_gui_tree_fixture_tear_down);
  g_test_add ("/session/tree-ref", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_tree_ref,
              afg_gui_tree_fixture_tear_down);
  g_test_add ("/session/document-scope", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_document_scope,
              afg_gui_tree_fixture_tear_down);
  g_test_add_func ("/session/merge", test_merge);
  g_test_add_func ("/session/device-weight", test_device_weight);
  g_test_add_func ("/session/setting-names", test_setting_names);
  g_test_add_func ("/session/job-folder", test_job_folder);
  g_test_add_func ("/session/transforms", test_transforms);
  g_test_add_func ("/session/icicle", test_icicle);
  return g_test_run ();
}
