/* SPDX-License-Identifier: MIT */
/* JSON v2 and folded output, parsed back; afg_export_to_dir. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-json-writer.h"
#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define TA GTID (10, 11)
#define TB GTID (10, 12)

static AfgTestDb *
make_db (void)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_add (db, TA, 0, 100, "train.py(1): main");
  afg_test_db_add (db, TA, 10, 60, "aten::add");
  afg_test_db_add (db, TA, 20, 30, "aclnnAdd");
  afg_test_db_add (db, TB, 0, 5, "<module>");
  afg_test_db_add_typed (db, TB, 0, 5, "range", TYPE_MSTX);
  afg_test_db_add (db, TB, 9, 9, "empty");
  return db;
}

static char *
write_json (const AfgTree *tree)
{
  GString *out = g_string_new (NULL);

  afg_json_write (tree, out);
  return g_string_free (out, FALSE);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_utf8_validate (json, -1, NULL));
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* Compact, in member order: independent of the writer's whitespace. */
static char *
canonical (const char *json)
{
  g_autoptr(JsonNode) root = parse (json);
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

static void
test_json_exact (void)
{
  AfgTestDb *db = make_db ();
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autofree char *json = write_json (tree);
  g_autofree char *actual = canonical (json);
  g_autofree char *expected = NULL;
  struct stat st;

  g_assert_cmpint (g_stat (db->path, &st), ==, 0);
  expected = g_strdup_printf (
    "{\"format\":\"ascend-flamegraph\",\"version\":3,"
    "\"source\":{\"file\":\"ascend_pytorch_profiler_0.db\",\"bytes\":%" G_GINT64_FORMAT "},"
    "\"stats\":{\"rows\":6,\"used\":4,\"skipped_type\":1,\"skipped_null\":0,"
    "\"skipped_malformed\":0,\"skipped_nonpositive\":1,\"profiler_steps\":0,"
    "\"partial_overlaps\":0,\"depth_truncated\":0},"
    "\"scope\":null,\"steps\":[],\"device_timeline\":null,"
    "\"npu\":null,"
    "\"functions\":["
    "{\"name\":\"train.py(1): main\",\"category\":\"python\",\"calls\":1,\"self_ns\":50,\"total_ns\":100},"
    "{\"name\":\"aten::add\",\"category\":\"python_framework\",\"calls\":1,\"self_ns\":40,\"total_ns\":50},"
    "{\"name\":\"aclnnAdd\",\"category\":\"cann\",\"calls\":1,\"self_ns\":10,\"total_ns\":10},"
    "{\"name\":\"<module>\",\"category\":\"python\",\"calls\":1,\"self_ns\":5,\"total_ns\":5}],"
    "\"threads\":["
    "{\"global_tid\":42949672971,\"pid\":10,\"tid\":11,\"label\":\"10/11\",\"total_ns\":100,"
    "\"children\":[{\"name\":\"train.py(1): main\",\"category\":\"python\",\"calls\":1,"
    "\"total_ns\":100,\"self_ns\":50,\"durations\":[100,100,100,100,100],"
    "\"children\":[{\"name\":\"aten::add\","
    "\"category\":\"python_framework\",\"calls\":1,\"total_ns\":50,\"self_ns\":40,"
    "\"durations\":[50,50,50,50,50],"
    "\"children\":[{\"name\":\"aclnnAdd\",\"category\":\"cann\",\"calls\":1,\"total_ns\":10,"
    "\"self_ns\":10,\"durations\":[10,10,10,10,10],\"children\":[]}]}]}]},"
    "{\"global_tid\":42949672972,\"pid\":10,\"tid\":12,\"label\":\"10/12\",\"total_ns\":5,"
    "\"children\":[{\"name\":\"<module>\",\"category\":\"python\",\"calls\":1,\"total_ns\":5,"
    "\"self_ns\":5,\"durations\":[5,5,5,5,5],\"children\":[]}]}]}", (gint64) st.st_size);
  g_assert_cmpstr (actual, ==, expected);
  afg_test_db_free (db);
}

static const char *
child_name (JsonArray *children, guint i)
{
  return json_object_get_string_member (json_array_get_object_element (children, i), "name");
}

/* Children in byte order of name, same-named siblings merged. */
static void
test_json_order (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *threads, *children;
  static const char * const names[] = { "b", "B", "a", "_", "\xc3\xa9", "A", "b" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    afg_test_db_add (db, GTID (2, 1), i * 10, i * 10 + 1, names[i]);
  afg_test_db_add (db, GTID (1, 9), 0, 1, "x");
  tree = afg_test_db_load (db);
  json = write_json (tree);
  root = parse (json);
  threads = json_object_get_array_member (json_node_get_object (root), "threads");
  g_assert_cmpuint (json_array_get_length (threads), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (threads, 0), "label"), ==, "1/9");
  children = json_object_get_array_member (json_array_get_object_element (threads, 1), "children");
  g_assert_cmpuint (json_array_get_length (children), ==, 6);
  g_assert_cmpstr (child_name (children, 0), ==, "A");
  g_assert_cmpstr (child_name (children, 1), ==, "B");
  g_assert_cmpstr (child_name (children, 2), ==, "_");
  g_assert_cmpstr (child_name (children, 3), ==, "a");
  g_assert_cmpstr (child_name (children, 4), ==, "b");
  g_assert_cmpstr (child_name (children, 5), ==, "\xc3\xa9");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (children, 4), "calls"), ==, 2);
  afg_test_db_free (db);
}

/* From 10,000 nodes the function table is built on a second core and its
 * text moved in before the threads': it must be where and what the table
 * writes alone, and the threads complete after it. */
#define N_BIG_NAMES 12000

static AfgTestDb *
make_big_db (void)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_begin (db);
  for (guint i = 0; i < N_BIG_NAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("op%05u", i);

      afg_test_db_add (db, i % 2 ? TA : TB, i * 10, i * 10 + 5, name);
    }
  afg_test_db_commit (db);
  return db;
}

static void
test_json_big_tree (void)
{
  enum { N_NAMES = N_BIG_NAMES };
  AfgTestDb *db = make_big_db ();
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GString) functions = g_string_new (NULL);
  g_autoptr(JsonNode) root = NULL;
  const char *at;
  JsonArray *threads;

  tree = afg_test_db_load (db);
  g_assert_cmpuint (afg_tree_get_n_nodes (tree), >, 10000);
  json = write_json (tree);
  afg_json_append_functions (functions, tree);
  at = strstr (json, "\"npu\":null,\"functions\":[");
  g_assert_nonnull (at);
  at += strlen ("\"npu\":null,");
  g_assert_cmpmem (at, functions->len, functions->str, functions->len);
  g_assert_true (g_str_has_prefix (at + functions->len, ",\"threads\":[{\"global_tid\":"));
  root = parse (json);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "functions")),
                    ==, N_NAMES);
  threads = json_object_get_array_member (json_node_get_object (root), "threads");
  g_assert_cmpuint (json_array_get_length (threads), ==, 2);
  for (guint t = 0; t < 2; t++)
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_array_get_object_element (threads, t),
                                                                           "children")), ==, N_NAMES / 2);
  g_assert_true (g_str_has_suffix (json, "]}]}]}\n"));
  afg_test_db_free (db);
}

typedef struct {
  GString *text;
  guint    pieces;
  guint    fail_at;  /* the piece that fails, 0 for none */
} Pieces;

static gboolean
take_piece (const char *data, gsize len, gpointer user_data, GError **error)
{
  Pieces *pieces = user_data;

  g_assert_cmpuint (len, >, 0);
  if (++pieces->pieces == pieces->fail_at)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC, "disk full");
      return FALSE;
    }
  g_string_append_len (pieces->text, data, len);
  return TRUE;
}

/* The streamed text is the held one, byte for byte, in more than one
 * piece, and never written past a failed piece. */
static void
test_json_streamed (void)
{
  AfgTestDb *db = make_big_db ();
  g_autoptr(AfgTree) tree = afg_test_db_load (db);
  g_autofree char *json = write_json (tree);
  g_autoptr(GString) text = g_string_new (NULL);
  Pieces pieces = { text, 0, 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (afg_json_write_streamed (tree, take_piece, &pieces, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pieces.pieces, >, 2);
  g_assert_cmpuint (text->len, ==, strlen (json));
  g_assert_true (memcmp (text->str, json, text->len) == 0);

  g_string_truncate (text, 0);
  pieces = (Pieces) { text, 0, 2 };
  g_assert_false (afg_json_write_streamed (tree, take_piece, &pieces, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_assert_cmpuint (pieces.pieces, ==, 2);
  afg_test_db_free (db);
}

/* A streamed export writes the same file. */
static void
test_export_streamed (void)
{
  AfgTestDb *db = make_big_db ();
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autofree char *json = write_json (tree);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *out_path = NULL;
  g_autofree char *content = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (afg_export_to_dir (tree, &(AfgExportOptions) { AFG_FORMAT_JSON, .streamed = TRUE }, dir,
                                    &out_path, NULL, &error));
  g_assert_no_error (error);
  g_file_get_contents (out_path, &content, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (content, ==, json);
  afg_test_rm_rf (dir);
  afg_test_db_free (db);
}

/* Hostile names survive a round trip; the output is valid UTF-8. */
static void
test_json_escaping (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *children;
  const char *hostile = "\"q\" back\\slash\nnl\ttab\x01\x1f </script><!-- & \xe2\x80\xa8";

  afg_test_db_add (db, GTID (1, 1), 0, 10, hostile);
  afg_test_db_add (db, GTID (1, 1), 20, 30, "bad\xff");
  tree = afg_test_db_load (db);
  json = write_json (tree);
  g_assert_null (strstr (json, "</script>"));
  root = parse (json);
  children = json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "threads"), 0),
    "children");
  g_assert_cmpstr (child_name (children, 0), ==, hostile);
  g_assert_true (g_str_has_prefix (child_name (children, 1), "bad\xef\xbf\xbd"));
  afg_test_db_free (db);
}

/* The same database gives the same bytes. */
static void
test_deterministic (void)
{
  AfgTestDb *db = make_db ();
  g_autoptr(AfgTree) a = NULL;
  g_autoptr(AfgTree) b = NULL;
  g_autofree char *ja = NULL;
  g_autofree char *jb = NULL;
  g_autoptr(GString) fa = g_string_new (NULL);
  g_autoptr(GString) fb = g_string_new (NULL);

  for (int i = 0; i < 200; i++)
    afg_test_db_add (db, GTID (i % 7, i % 5), i * 3, i * 3 + 2 + i % 4, i % 2 ? "odd" : "even");
  a = afg_test_db_load (db);
  b = afg_test_db_load (db);
  ja = write_json (a);
  jb = write_json (b);
  g_assert_cmpstr (ja, ==, jb);
  afg_folded_write (a, AFG_COLUMN_SELF_NS, fa);
  afg_folded_write (b, AFG_COLUMN_SELF_NS, fb);
  g_assert_cmpstr (fa->str, ==, fb->str);
  afg_test_db_free (db);
}

/* frame;frame;frame self_ns, thread label first, self 0 left out. */
static void
test_folded (void)
{
  AfgTestDb *db = make_db ();
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) actual = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();
  g_auto(GStrv) lines = NULL;
  static const char * const want[] = {
    "10/11;train.py(1): main 50",
    "10/11;train.py(1): main;aten::add 40",
    "10/11;train.py(1): main;aten::add;aclnnAdd 10",
    "10/12;<module> 5",
    "10/13;outer;inner 100",
  };

  afg_test_db_add (db, GTID (10, 13), 0, 100, "outer");
  afg_test_db_add (db, GTID (10, 13), 0, 100, "inner");
  tree = afg_test_db_load (db);
  afg_folded_write (tree, AFG_COLUMN_SELF_NS, out);
  g_assert_true (g_str_has_suffix (out->str, "\n"));
  lines = g_strsplit (out->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (actual, g_strdup (lines[i]));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_ptr_array_add (expected, (gpointer) want[i]);
  afg_test_assert_lines (actual, expected, "folded");
  afg_test_db_free (db);
}

static void
test_export_to_dir (gconstpointer data)
{
  AfgFormat format = GPOINTER_TO_INT (data);
  AfgTestDb *db = make_db ();
  g_autoptr(AfgTree) tree = afg_test_db_load (db);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *out_path = NULL;
  g_autofree char *expected_path = g_build_filename (dir, afg_format_file_name (format), NULL);
  g_autofree char *listing = NULL;
  g_autofree char *content = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (afg_export_to_dir (tree, &(AfgExportOptions) { format }, dir, &out_path, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out_path, ==, expected_path);
  listing = afg_test_snapshot_dir (dir);
  g_assert_true (g_str_has_prefix (listing, afg_format_file_name (format)));
  g_assert_null (strchr (strchr (listing, '\n') + 1, '\n'));
  g_file_get_contents (out_path, &content, NULL, &error);
  g_assert_no_error (error);
  if (format == AFG_FORMAT_JSON)
    {
      /* A tree without durations is exported with them, as JSON v2 says. */
      g_autoptr(AfgTree) full = afg_test_build (afg_tree_get_document (tree), NULL, AFG_TREE_DURATIONS);

      g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN));
      afg_json_write (full, expected);
      g_assert_nonnull (strstr (content, "\"durations\":[100,100,100,100,100]"));
    }
  else if (format == AFG_FORMAT_FOLDED)
    afg_folded_write (tree, AFG_COLUMN_SELF_NS, expected);
  if (format != AFG_FORMAT_HTML)
    g_assert_cmpstr (content, ==, expected->str);
  afg_test_rm_rf (dir);
  afg_test_db_free (db);
}

static void
test_export_target_is_dir (void)
{
  AfgTestDb *db = make_db ();
  g_autoptr(AfgTree) tree = afg_test_db_load (db);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *target = g_build_filename (dir, "flamegraph.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (target, 0755), ==, 0);
  before = afg_test_snapshot_dir (dir);
  g_assert_false (afg_export_to_dir (tree, &(AfgExportOptions) { AFG_FORMAT_JSON }, dir, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, target));
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  afg_test_rm_rf (dir);
  afg_test_db_free (db);
}

static void
test_format_names (void)
{
  AfgFormat format;

  g_assert_cmpstr (afg_format_file_name (AFG_FORMAT_HTML), ==, "flamegraph.html");
  g_assert_cmpstr (afg_format_file_name (AFG_FORMAT_JSON), ==, "flamegraph.json");
  g_assert_cmpstr (afg_format_file_name (AFG_FORMAT_FOLDED), ==, "flamegraph.folded");
  g_assert_true (afg_format_from_string ("folded", &format));
  g_assert_cmpint (format, ==, AFG_FORMAT_FOLDED);
  g_assert_false (afg_format_from_string ("xml", &format));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/exact", test_json_exact);
  g_test_add_func ("/json/order", test_json_order);
  g_test_add_func ("/json/escaping", test_json_escaping);
  g_test_add_func ("/json/big-tree", test_json_big_tree);
  g_test_add_func ("/json/streamed", test_json_streamed);
  g_test_add_func ("/export/streamed", test_export_streamed);
  g_test_add_func ("/writers/deterministic", test_deterministic);
  g_test_add_func ("/folded/lines", test_folded);
  g_test_add_data_func ("/export/json", GINT_TO_POINTER (AFG_FORMAT_JSON), test_export_to_dir);
  g_test_add_data_func ("/export/folded", GINT_TO_POINTER (AFG_FORMAT_FOLDED), test_export_to_dir);
  g_test_add_data_func ("/export/html", GINT_TO_POINTER (AFG_FORMAT_HTML), test_export_to_dir);
  g_test_add_func ("/export/target-is-directory", test_export_target_is_dir);
  g_test_add_func ("/export/format-names", test_format_names);
  return g_test_run ();
}
