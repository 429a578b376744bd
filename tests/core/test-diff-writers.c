/* SPDX-License-Identifier: MIT */
/* The diff's JSON (format ascend-flamegraph-diff, version 1) and folded
 * stacks (`stack a_self b_self`, flamegraph.pl's differential input). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-diff-writers.h"
#include "afg-test-db.h"

#define MAIN "main.py(1): main"

static const AfgTestEvent a_events[] = {
  { GTID (1, 1), 0, 100, MAIN },
  { GTID (1, 1), 10, 40, "only;in\na" },
  { GTID (1, 1), 50, 90, "both \"quoted\" <b>" },
  { GTID (1, 2), 200, 230, MAIN },
};
static const AfgTestEvent b_events[] = {
  { GTID (7, 7), 500, 800, MAIN },
  { GTID (7, 7), 510, 530, "both \"quoted\" <b>" },
  { GTID (7, 7), 600, 700, "only_in_b" },
  { GTID (7, 7), 610, 700, "aten::zero_" },
};

static AfgDiffShape *
small_diff (AfgTreeFlags flags)
{
  AfgTestDb *a_db = afg_test_db_new (0);
  AfgTestDb *b_db = afg_test_db_new (0);
  g_autoptr(AfgDocument) a_doc = NULL;
  g_autoptr(AfgDocument) b_doc = NULL;
  g_autoptr(AfgTree) a = NULL;
  g_autoptr(AfgTree) b = NULL;
  AfgDiffShape *diff;

  afg_test_db_add_events (a_db, a_events, G_N_ELEMENTS (a_events));
  afg_test_db_add_events (b_db, b_events, G_N_ELEMENTS (b_events));
  a_doc = afg_test_db_load_document (a_db);
  b_doc = afg_test_db_load_document (b_db);
  a = afg_test_build (a_doc, NULL, flags);
  b = afg_test_build (b_doc, NULL, flags);
  diff = afg_diff_shape_new (a, b, "diff", NULL);
  afg_test_db_free (a_db);
  afg_test_db_free (b_db);
  return diff;
}

static JsonObject *
member (JsonObject *object, const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  return json_object_get_object_member (object, name);
}

static char *
side_line (JsonObject *node, const char *side)
{
  JsonObject *v = member (node, side);

  g_assert_cmpuint (json_object_get_size (v), ==, 3);
  return g_strdup_printf ("%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                          json_object_get_int_member (v, "calls"), json_object_get_int_member (v, "total_ns"),
                          json_object_get_int_member (v, "self_ns"));
}

/* NODE = {"name","category","a","b","children"}, in that order. */
static void
render_nodes (GPtrArray *lines, const char *prefix, JsonArray *children)
{
  static const char * const keys[] = { "name", "category", "a", "b", "children" };

  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonObject *node = json_array_get_object_element (children, i);
      g_autoptr(GList) names = json_object_get_members (node);
      const char *name = json_object_get_string_member (node, "name");
      g_autofree char *path = prefix ? g_strconcat (prefix, ";", name, NULL) : g_strdup (name);
      g_autofree char *a = side_line (node, "a");
      g_autofree char *b = side_line (node, "b");
      guint k = 0;

      for (GList *l = names; l != NULL; l = l->next)
        g_assert_cmpstr (l->data, ==, keys[k++]);
      g_assert_cmpuint (k, ==, G_N_ELEMENTS (keys));
      g_ptr_array_add (lines, g_strdup_printf ("%s\t%s\t%s", path, a, b));
      render_nodes (lines, path, json_object_get_array_member (node, "children"));
    }
}

static JsonParser *
parse (AfgDiffShape *diff, GString *text)
{
  JsonParser *parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  afg_diff_json_write (diff, text);
  json_parser_load_from_data (parser, text->str, text->len, &error);
  g_assert_no_error (error);
  return parser;
}

static void
assert_side (JsonObject *root, const char *key, const AfgTree *source)
{
  JsonObject *side = member (root, key);
  JsonObject *stats = member (side, "stats");
  g_autoptr(GList) names = json_object_get_members (side);

  g_assert_cmpuint (g_list_length (names), ==, 3);
  g_assert_cmpstr (names->data, ==, "source");
  g_assert_cmpstr (names->next->data, ==, "stats");
  g_assert_cmpstr (names->next->next->data, ==, "scope");
  g_assert_cmpstr (json_object_get_string_member (member (side, "source"), "file"), ==,
                   afg_document_get_source_name (afg_tree_get_document (source)));
  g_assert_cmpint (json_object_get_int_member (member (side, "source"), "bytes"), ==,
                   afg_document_get_source_bytes (afg_tree_get_document (source)));
  g_assert_cmpint (json_object_get_int_member (stats, "used"), ==, afg_tree_get_stats (source)->used);
  g_assert_cmpint (json_object_get_int_member (stats, "rows"), ==, afg_tree_get_stats (source)->rows);
}

/* Field by field, and the same tree as the model's, names escaped. */
static void
test_json (void)
{
  g_autoptr(AfgDiffShape) diff = small_diff (AFG_TREE_FLAGS_NONE);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonParser) parser = parse (diff, text);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_autoptr(GList) names = json_object_get_members (root);
  static const char * const keys[] = { "format", "version", "a", "b", "options", "children" };
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) model = afg_test_render_diff (diff);
  guint k = 0;

  for (GList *l = names; l != NULL; l = l->next)
    g_assert_cmpstr (l->data, ==, keys[k++]);
  g_assert_cmpuint (k, ==, G_N_ELEMENTS (keys));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "ascend-flamegraph-diff");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  assert_side (root, "a", afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A));
  assert_side (root, "b", afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B));
  g_assert_true (json_object_get_null_member (member (root, "a"), "scope"));
  g_assert_false (json_object_get_boolean_member (member (root, "options"), "merge_addresses"));
  render_nodes (lines, NULL, json_object_get_array_member (root, "children"));
  afg_test_assert_lines (lines, model, "json");
  g_assert_cmpuint (lines->len, ==, 5);
  g_assert_nonnull (strstr (text->str, "\"name\":\"both \\\"quoted\\\" \\u003cb\\u003e\",\"category\":\"unknown\""));
  g_assert_nonnull (strstr (text->str, "{\"name\":\"main.py(1): main\",\"category\":\"python\",\"a\":{\"calls\":2,"
                                       "\"total_ns\":130,\"self_ns\":60},\"b\":{\"calls\":1,\"total_ns\":300,"
                                       "\"self_ns\":180},\"children\":["));
  g_assert_true (g_str_has_suffix (text->str, "]}\n"));
}

/* The two real samples, addresses merged. */
static AfgDiffShape *
samples_diff (void)
{
  const char *names[] = { "ascend_pytorch_profiler_level0_rank0", "ascend_pytorch_profiler_level1_rank0" };
  AfgTree *sides[2];
  AfgDiffShape *diff;

  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *path = afg_test_sample_path (names[s], ".db");
      g_autoptr(GError) error = NULL;
      g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      sides[s] = afg_test_build (document, NULL, AFG_TREE_MERGE_ADDRESSES);
    }
  diff = afg_diff_shape_new (sides[0], sides[1], "diff", NULL);
  afg_tree_unref (sides[0]);
  afg_tree_unref (sides[1]);
  return diff;
}

/* The samples: the JSON's tree is the expected diff, merge_addresses true. */
static void
test_json_samples (void)
{
  g_autofree char *expected_path = afg_test_sample_path ("level0_rank0-vs-level1_rank0", ".diff.expected");
  g_autoptr(AfgDiffShape) diff = samples_diff ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonParser) parser = parse (diff, text);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);

  g_assert_true (json_object_get_boolean_member (member (root, "options"), "merge_addresses"));
  render_nodes (lines, NULL, json_object_get_array_member (root, "children"));
  afg_test_assert_lines (lines, expected, "json of the samples' diff");
}

/* A side's scope as in JSON v2. */
static void
test_json_scope (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 100, "ProfilerStep#1" },
    { GTID (1, 1), 100, 300, "ProfilerStep#2" },
    { GTID (1, 1), 0, 300, MAIN },
  };
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) whole = NULL;
  g_autoptr(AfgTree) two = NULL;
  g_autoptr(AfgDiffShape) diff = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  document = afg_test_db_load_document (db);
  g_assert_true (afg_scope_init_steps (&scope, document, 2, 2, &error));
  whole = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  two = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  diff = afg_diff_shape_new (whole, two, "diff", NULL);
  afg_diff_json_write (diff, text);
  g_assert_nonnull (strstr (text->str, "\"scope\":null},\"b\":"));
  g_assert_nonnull (strstr (text->str, "\"scope\":{\"steps\":[2,2],\"start_ns\":100,\"end_ns\":300}},\"options\""));
  afg_test_db_free (db);
}

/* Depth-first, a line for every frame with self time on either side;
 * the separators in names become spaces. */
static void
test_folded (void)
{
  g_autoptr(AfgDiffShape) diff = small_diff (AFG_TREE_FLAGS_NONE);
  g_autoptr(GString) text = g_string_new (NULL);

  afg_diff_folded_write (diff, text);
  g_assert_cmpstr (text->str, ==,
                   MAIN " 60 180\n"
                   MAIN ";both \"quoted\" <b> 40 20\n"
                   MAIN ";only in a 30 0\n"
                   MAIN ";only_in_b 0 10\n"
                   MAIN ";only_in_b;aten::zero_ 0 90\n");
}

/* An empty side: every stack has 0 on it; two empty sides: nothing. */
static void
test_folded_empty (void)
{
  static const AfgTestEvent steps_only[] = { { GTID (1, 1), 0, 100, "ProfilerStep#1" } };
  static const AfgTestEvent events[] = { { GTID (1, 1), 0, 100, MAIN } };
  g_autoptr(AfgTree) empty = afg_test_load_events (0, steps_only, G_N_ELEMENTS (steps_only));
  g_autoptr(AfgTree) full = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  g_autoptr(AfgDiffShape) one = afg_diff_shape_new (full, empty, "diff", NULL);
  g_autoptr(AfgDiffShape) none = afg_diff_shape_new (empty, empty, "diff", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);

  afg_diff_folded_write (one, text);
  g_assert_cmpstr (text->str, ==, MAIN " 100 0\n");
  g_string_truncate (text, 0);
  afg_diff_folded_write (none, text);
  g_assert_cmpstr (text->str, ==, "");
  afg_diff_json_write (none, json);
  g_assert_true (g_str_has_suffix (json->str, ",\"children\":[]}\n"));
}

/* Each column of the samples' folded diff adds up to that side's self
 * time, and every line is `stack a b` with the stack's last space before
 * the two counts. */
static void
test_folded_samples (void)
{
  g_autoptr(AfgDiffShape) diff = samples_diff ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  gint64 sums[2] = { 0, 0 }, want[2] = { 0, 0 };

  afg_diff_folded_write (diff, text);
  lines = g_strsplit (text->str, "\n", -1);
  for (guint i = 0; lines[i][0] != '\0'; i++)
    {
      char *b_count = strrchr (lines[i], ' ');
      char *a_count;

      *b_count = '\0';
      a_count = strrchr (lines[i], ' ');
      sums[0] += g_ascii_strtoll (a_count + 1, NULL, 10);
      sums[1] += g_ascii_strtoll (b_count + 1, NULL, 10);
    }
  for (guint32 i = 1; i < afg_tree_get_n_nodes (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B)); i++)
    for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
      {
        AfgDiffValues v;

        afg_diff_shape_get_values (diff, s, i, &v);
        want[s] += v.self_ns;
      }
  g_assert_cmpint (sums[0], ==, want[0]);
  g_assert_cmpint (sums[1], ==, want[1]);
  g_assert_cmpint (sums[0], >, 100000000);
}

/* The window's export: a file of any name, the bytes of the directory
 * export of the same format; a trace is refused (a diff has no
 * timeline), nothing written. */
static void
test_to_file (void)
{
  g_autoptr(AfgDiffShape) diff = small_diff (AFG_TREE_FLAGS_NONE);
  g_autofree char *dir = g_dir_make_tmp ("afg-diff-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.folded", NULL);
  g_autofree char *trace = g_build_filename (dir, "mine.trace.json", NULL);
  g_autofree char *dir_path = NULL;
  g_autofree char *mine = NULL;
  g_autofree char *theirs = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (afg_diff_export_to_file (diff, AFG_FORMAT_FOLDED, path, &error));
  g_assert_no_error (error);
  g_assert_true (afg_diff_export_to_dir (diff, AFG_FORMAT_FOLDED, dir, &dir_path, &error));
  g_assert_true (g_file_get_contents (path, &mine, NULL, NULL));
  g_assert_true (g_file_get_contents (dir_path, &theirs, NULL, NULL));
  g_assert_cmpstr (mine, ==, theirs);
  g_assert_false (afg_diff_export_to_file (diff, AFG_FORMAT_TRACE, trace, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_false (g_file_test (trace, G_FILE_TEST_EXISTS));
  g_unlink (path);
  g_unlink (dir_path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-writers/json", test_json);
  g_test_add_func ("/diff-writers/json/samples", test_json_samples);
  g_test_add_func ("/diff-writers/json/scope", test_json_scope);
  g_test_add_func ("/diff-writers/folded", test_folded);
  g_test_add_func ("/diff-writers/folded/empty", test_folded_empty);
  g_test_add_func ("/diff-writers/folded/samples", test_folded_samples);
  g_test_add_func ("/diff-writers/to-file", test_to_file);
  return g_test_run ();
}
