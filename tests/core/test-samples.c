/* SPDX-License-Identifier: MIT */
/* The two real torch_npu databases must give exactly the nodes listed in
 * the .expected file beside each. Missing samples fail the test. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-loader.h"
#include "afg-test-db.h"


static void
test_sample (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *expected_path = afg_test_sample_path (name, ".expected");
  g_autofree char *dir = g_path_get_dirname (db_path);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) actual = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_test (db_path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (expected_path, G_FILE_TEST_IS_REGULAR));
  expected = afg_test_read_lines (expected_path);
  g_assert_cmpuint (expected->len, >, 1000);
  before = afg_test_snapshot_dir (dir);
  tree = afg_test_load_tree (db_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  afg_test_check_invariants (tree);
  actual = afg_test_render_tree (tree);
  afg_test_assert_lines (actual, expected, name);
  g_assert_cmpuint (afg_tree_get_stats (tree)->partial_overlaps, ==, 16);
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
}

/* --merge-addresses: the .merged.expected beside each sample. */
static void
test_sample_merged (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *expected_path = afg_test_sample_path (name, ".merged.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GPtrArray) actual = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) plain = NULL;

  g_assert_no_error (error);
  tree = afg_test_build (document, NULL, AFG_TREE_MERGE_ADDRESSES);
  plain = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  actual = afg_test_render_tree (tree);
  g_assert_cmpuint (afg_tree_get_n_nodes (tree), <, afg_tree_get_n_nodes (plain));
  afg_test_assert_lines (actual, expected, name);
}

static gint64
sum_calls (JsonArray *children)
{
  gint64 calls = 0;

  for (guint i = 0; i < json_array_get_length (children); i++)
    calls += json_object_get_int_member (json_array_get_object_element (children, i), "calls");
  return calls;
}

/* Every node of a JSON export as an `.expected` line; a thread's calls
 * are its top frames' (JSON threads carry no calls of their own). */
static void
render_json_nodes (GPtrArray *lines, const char *prefix, JsonArray *children)
{
  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonObject *node = json_array_get_object_element (children, i);
      g_autofree char *path = g_strconcat (prefix, ";", json_object_get_string_member (node, "name"), NULL);

      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               path, json_object_get_int_member (node, "calls"),
                                               json_object_get_int_member (node, "total_ns"),
                                               json_object_get_int_member (node, "self_ns")));
      render_json_nodes (lines, path, json_object_get_array_member (node, "children"));
    }
}

static GPtrArray *
render_json_export (const char *db_path, const char *option)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *json_path = g_build_filename (dir, "flamegraph.json", NULL);
  const char *args[] = { "--export", "-q", "-f", "json", "-o", dir, db_path, option, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  JsonArray *threads;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  threads = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "threads");
  for (guint t = 0; t < json_array_get_length (threads); t++)
    {
      JsonObject *thread = json_array_get_object_element (threads, t);
      const char *label = json_object_get_string_member (thread, "label");
      JsonArray *children = json_object_get_array_member (thread, "children");

      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t0", label,
                                               sum_calls (children),
                                               json_object_get_int_member (thread, "total_ns")));
      render_json_nodes (lines, label, children);
    }
  afg_test_rm_rf (dir);
  return lines;
}

/* --merge-addresses through the command line: its JSON export is the
 * .merged.expected tree, and without the option the plain .expected one. */
static void
test_sample_merged_cli (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *merged_path = afg_test_sample_path (name, ".merged.expected");
  g_autofree char *plain_path = afg_test_sample_path (name, ".expected");
  g_autoptr(GPtrArray) merged = render_json_export (db_path, "--merge-addresses");
  g_autoptr(GPtrArray) plain = render_json_export (db_path, NULL);
  g_autoptr(GPtrArray) merged_expected = afg_test_read_lines (merged_path);
  g_autoptr(GPtrArray) plain_expected = afg_test_read_lines (plain_path);

  g_assert_cmpuint (merged_expected->len, <, plain_expected->len);
  afg_test_assert_lines (merged, merged_expected, name);
  afg_test_assert_lines (plain, plain_expected, name);
}

/* As a non-root user: the sample directory is read-only, and one sample
 * is in WAL mode. The sample is copied out first: the checkout itself may
 * sit below a directory that user cannot enter (a 0700 home or mktemp). */
static void
test_sample_cli_nobody (gconstpointer data)
{
  const char *name = data;
  g_autofree char *sample = afg_test_sample_path (name, ".db");
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *base = g_path_get_basename (sample);
  g_autofree char *db_path = g_build_filename (dir, base, NULL);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *out_file = g_build_filename (out_dir, "flamegraph.folded", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize len;
  const char *args[] = { "--export", "-q", "-f", "folded", "-o", out_dir, db_path, NULL };

  g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
  afg_test_write_file (db_path, contents, len);
  g_assert_cmpint (g_chmod (db_path, 0444), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  before = afg_test_snapshot_dir (dir);
  g_assert_cmpint (g_chmod (out_dir, 0777), ==, 0);
  g_assert_cmpint (afg_test_run_cli (args, TRUE, NULL, NULL), ==, 0);
  g_assert_true (g_file_test (out_file, G_FILE_TEST_IS_REGULAR));
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  afg_test_rm_rf (dir);
  afg_test_rm_rf (out_dir);
}

int
main (int argc, char **argv)
{
  static const char * const samples[] = {
    "ascend_pytorch_profiler_level0_rank0",
    "ascend_pytorch_profiler_level1_rank0",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *tree = g_strconcat ("/samples/tree/", samples[i], NULL);
      g_autofree char *cli = g_strconcat ("/samples/cli-as-nobody/", samples[i], NULL);

      g_test_add_data_func (tree, samples[i], test_sample);
      g_autofree char *merged = g_strconcat ("/samples/merged/", samples[i], NULL);
      g_autofree char *merged_cli = g_strconcat ("/samples/merged-cli-json/", samples[i], NULL);

      g_test_add_data_func (cli, samples[i], test_sample_cli_nobody);
      g_test_add_data_func (merged, samples[i], test_sample_merged);
      g_test_add_data_func (merged_cli, samples[i], test_sample_merged_cli);
    }
  return g_test_run ();
}
