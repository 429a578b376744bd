/* SPDX-License-Identifier: MIT */
/* The transforms on the command line: in the order given on --export,
 * --top and both sides of --diff; JSON's "transforms" and functions of
 * the transformed tree; usage errors for -f trace and for an F or PATH
 * that cannot be read. */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "afg-test-db.h"
#include "afg-tree-transform.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE };

static const AfgTestEvent shape[] = {
  { T1, 0, 1000, "main" },
  { T1, 0, 400, "a" },
  { T1, 10, 210, "F" },
  { T1, 130, 200, "c" },
  { T1, 250, 350, "c" },
  { T1, 500, 900, "F" },
  { T1, 510, 610, "F" },
};

static char *
make_db_of (const AfgTestEvent *events, guint n)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add_events (db, events, n);
  return afg_test_db_keep (db);
}

static char *
make_db (void)
{
  return make_db_of (shape, G_N_ELEMENTS (shape));
}

static void
remove_db (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  afg_test_rm_rf (dir);
}

/* Runs the CLI with @args then -o DIR DB; returns DIR/@file's contents. */
static char *
run_export (const char *db, const char * const *args, const char *file)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  char *data;

  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, "-q");
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, dir);
  g_ptr_array_add (argv, (gpointer) db);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (afg_test_run_cli ((const char * const *) argv->pdata, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_cmpstr (err, ==, "");
  data = afg_test_read_output (dir, file);
  afg_test_rm_rf (dir);
  return data;
}

/* The JSON the core writes for the same tree and list. */
static char *
core_json (const char *db, const char * const *pairs)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = afg_test_load_tree (db, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) built = NULL;
  g_autoptr(AfgTree) transformed = NULL;
  g_autoptr(AfgTransformList) list = afg_transform_list_new ();
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  built = afg_tree_build (afg_tree_get_document (tree), NULL, AFG_TREE_DURATIONS, NULL, NULL);
  for (guint i = 0; pairs[i] != NULL; i += 2)
    {
      AfgTransformOp op;

      g_assert_true (afg_transform_op_from_string (pairs[i], &op));
      g_assert_true (afg_transform_list_append (list, op, pairs[i + 1], NULL));
    }
  transformed = afg_tree_transform (built, list, NULL, NULL);
  afg_json_write (transformed, out);
  return g_string_free (out, FALSE);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root = json_from_string (json, &error);

  g_assert_no_error (error);
  return root;
}

static gboolean
has_function (JsonObject *object, const char *name)
{
  JsonArray *functions = json_object_get_array_member (object, "functions");

  for (guint i = 0; i < json_array_get_length (functions); i++)
    if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (functions, i), "name"), name) == 0)
      return TRUE;
  return FALSE;
}

/* Repeated options apply in the order given; the JSON lists them and
 * its functions are the transformed tree's. */
static void
test_json (void)
{
  g_autofree char *db = make_db ();
  const char *args[] = { "--export", "-f", "json", "--merge-function", "F", "--drop-function", "/^c$/", NULL };
  g_autofree char *json = run_export (db, args, "flamegraph.json");
  g_autofree char *expected = core_json (db, (const char *[]) { "merge-function", "F", "drop-function", "/^c$/", NULL });
  g_autoptr(JsonNode) root = parse (json);
  JsonObject *object = json_node_get_object (root);
  JsonArray *transforms = json_object_get_array_member (object, "transforms");
  JsonObject *second = json_array_get_object_element (transforms, 1);

  g_assert_cmpstr (json, ==, expected);
  g_assert_nonnull (strstr (json, ",\"transforms\":[{\"op\":\"merge-function\",\"arg\":\"F\"},"
                                  "{\"op\":\"drop-function\",\"arg\":\"/^c$/\"}],\"functions\":"));
  g_assert_cmpuint (json_array_get_length (transforms), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (second, "op"), ==, "drop-function");
  g_assert_cmpstr (json_object_get_string_member (second, "arg"), ==, "/^c$/");
  g_assert_false (has_function (object, "F"));
  g_assert_false (has_function (object, "c"));
  g_assert_true (has_function (object, "a"));
  remove_db (db);
}

/* Without a transform the JSON has no "transforms"; in the other order
 * the result differs. The merged top frame's own time (600 - 70 ns)
 * stays on the thread's line. */
static void
test_order (void)
{
  g_autofree char *db = make_db ();
  g_autofree char *plain = run_export (db, (const char *[]) { "--export", "-f", "json", NULL }, "flamegraph.json");
  g_autofree char *focus_merge = run_export (db, (const char *[]) { "--export", "-f", "folded", "--focus-function", "F",
                                                                    "--merge-function", "F", NULL }, "flamegraph.folded");
  g_autofree char *merge_focus = run_export (db, (const char *[]) { "--export", "-f", "folded", "--merge-function", "F",
                                                                    "--focus-function", "F", NULL }, "flamegraph.folded");

  g_assert_null (strstr (plain, "\"transforms\""));
  g_assert_cmpstr (focus_merge, ==, "1/1 530\n1/1;c 70\n");
  g_assert_cmpstr (merge_focus, ==, "");
  remove_db (db);
}

static void
assert_usage (const char * const *args, const char *expected)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_USAGE);
  g_assert_nonnull (strstr (err, expected));
  afg_test_assert_error_and_hint (err);
}

static void
test_usage (void)
{
  g_autofree char *db = make_db ();

  assert_usage ((const char *[]) { "--export", "-f", "trace", "--merge-function", "F", db, NULL }, "-f trace");
  assert_usage ((const char *[]) { "--export", "--merge-function", "/(?i)f/", db, NULL }, "--merge-function '/(?i)f/'");
  assert_usage ((const char *[]) { "--export", "--drop-function", "/f", db, NULL }, "//NAME");
  assert_usage ((const char *[]) { "--export", "--focus-subtree", "a\\n", db, NULL }, "--focus-subtree 'a\\n'");
  /* A rank's summary is of its whole tree, as a job folder's ranks are:
   * the transforms are refused there, not ignored. */
  assert_usage ((const char *[]) { "--export", "-f", "summary", "--drop-function", "F", db, NULL }, "-f summary");
  assert_usage ((const char *[]) { "--merge-summaries", "--drop-function", "F", "-o", "/nonexistent", db, NULL },
                "--merge-summaries");
  remove_db (db);
}

/* Transforms that leave no frame leave no function either: the root is
 * none, in JSON and in --top. */
static void
test_empty_result (void)
{
  g_autofree char *db = make_db ();
  g_autofree char *json = run_export (db, (const char *[]) { "--export", "-f", "json", "--focus-function", "nosuch",
                                                             NULL }, "flamegraph.json");
  const char * const top[] = { "--top", "5", "--focus-function", "nosuch", db, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_nonnull (strstr (json, "\"threads\":[]"));
  g_assert_nonnull (strstr (json, "\"functions\":[]"));
  g_assert_cmpint (afg_test_run_cli (top, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_null (strstr (out, "All threads"));
  remove_db (db);
}

/* Runs the CLI with @args; its stderr (exit 0). */
static char *
run_err (const char * const *args)
{
  char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_OK);
  return err;
}

#define NO_FRAME(option) "ascend-flamegraph: warning: " option " names no frame\n"
#define NAME_HINT "ascend-flamegraph: hint: F is a frame's whole name; /REGEX/ matches part of one (see --help)\n"
#define LEFT_NONE "ascend-flamegraph: warning: the transforms leave no frame\n"

/* A transform that names no frame of the tree it is applied to (the one
 * the transforms before it made) is said so, with a hint; an empty result
 * is the transforms' doing, not the profiler's, unless the tree was empty
 * before them. */
static void
test_names_no_frame (void)
{
  static const AfgTestEvent none[] = { { T1, 100, 100, "main" } };
  g_autofree char *db = make_db ();
  g_autofree char *empty_db = make_db_of (none, G_N_ELEMENTS (none));
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *missing = run_err ((const char *[]) { "--export", "-f", "folded", "-o", dir, "--focus-function",
                                                         "nosuch", db, NULL });
  g_autofree char *path = run_err ((const char *[]) { "--top", "5", "--merge-function", "F", "--focus-subtree",
                                                      "main;zz", db, NULL });
  g_autofree char *emptied = run_err ((const char *[]) { "--top", "5", "--drop-function", "a", "--focus-function",
                                                         "c", db, NULL });
  g_autofree char *found = run_err ((const char *[]) { "--top", "5", "--focus-subtree", "main;a", "--merge-function",
                                                       "/^c$/", db, NULL });
  g_autofree char *regex = run_err ((const char *[]) { "--top", "5", "--drop-function", "/^zz/", db, NULL });
  /* F;c is a path of the focused tree, not of the one before it. */
  g_autofree char *in_turn = run_err ((const char *[]) { "--top", "5", "--focus-function", "F", "--focus-subtree",
                                                         "F;c", db, NULL });
  g_autofree char *diff = run_err ((const char *[]) { "--diff", db, db, "--export", "-f", "folded", "-o", dir,
                                                      "--drop-function", "zz", NULL });
  g_autofree char *base_empty = run_err ((const char *[]) { "--top", "5", "--focus-function", "main", empty_db,
                                                            NULL });

  g_assert_nonnull (strstr (missing, NO_FRAME ("--focus-function 'nosuch'") NAME_HINT LEFT_NONE));
  g_assert_null (strstr (missing, "PYTORCH_API"));
  g_assert_nonnull (strstr (path, NO_FRAME ("--focus-subtree 'main;zz'") "ascend-flamegraph: hint: A;B;C is the path"));
  g_assert_null (strstr (path, "--merge-function"));
  g_assert_nonnull (strstr (path, LEFT_NONE));
  /* c was under a, which the drop took away. */
  g_assert_cmpstr (emptied, ==, NO_FRAME ("--focus-function 'c'") NAME_HINT LEFT_NONE);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpstr (regex, ==, NO_FRAME ("--drop-function '/^zz/'") NAME_HINT);
  g_assert_cmpstr (in_turn, ==, "");
  g_assert_nonnull (strstr (diff, "ascend-flamegraph: A "));
  g_assert_nonnull (strstr (diff, ": warning: --drop-function 'zz' names no frame\n"));
  g_assert_nonnull (strstr (strstr (diff, "ascend-flamegraph: B "), "warning: --drop-function 'zz' names no frame\n"));
  g_assert_nonnull (strstr (base_empty, "no usable rows in PYTORCH_API"));
  g_assert_null (strstr (base_empty, "the transforms leave no frame"));
  g_assert_null (strstr (base_empty, "names no frame"));
  afg_test_rm_rf (dir);
  remove_db (db);
  remove_db (empty_db);
}

/* A frame named "" is a path's name like any other: `top;` focuses it. */
static void
test_empty_name (void)
{
  static const AfgTestEvent named[] = {
    { T1, 0, 1000, "top" },
    { T1, 10, 990, "" },
    { T1, 20, 500, "g" },
  };
  g_autofree char *db = make_db_of (named, G_N_ELEMENTS (named));
  g_autofree char *folded = run_export (db, (const char *[]) { "--export", "-f", "folded", "--focus-subtree", "top;",
                                                               NULL }, "flamegraph.folded");

  g_assert_cmpstr (folded, ==, "1/1; 500\n1/1;;g 480\n");
  remove_db (db);
}

/* A job folder's ranks are not transformed (yet): refused, not ignored. */
static void
test_folder (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *rank = afg_test_make_job_rank (root, "rank0_ascend_pt", "ascend_pytorch_profiler_0.db", 0,
                                                  "ascend_pytorch_profiler_level0_rank0");

  assert_usage ((const char *[]) { "--export", "--merge-function", "F", root, NULL }, "job folder");
  afg_test_rm_rf (root);
}

/* --top ranks the transformed tree's functions. */
static void
test_top (void)
{
  g_autofree char *db = make_db ();
  const char *args[] = { "--top", "10", "--drop-function", "a", db, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (out, "main"));
  g_assert_null (strstr (out, "  a\n"));
  g_assert_null (strstr (out, "  c\n"));
  remove_db (db);
}

/* --diff A B --export -f @format, with --merge-function @merge if
 * given; returns the file written. */
static char *
run_diff (const char *a, const char *b, const char *format, const char *merge)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--diff", a, b, "--export", "-f", format, "-q", "-o", dir, "--merge-function", merge, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *name = g_strconcat ("flamegraph-diff.", format, NULL);
  char *data;

  if (merge == NULL)
    args[9] = NULL;
  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  data = afg_test_read_output (dir, name);
  afg_test_rm_rf (dir);
  return data;
}

/* The sum of field @field (1: A's, 2: B's) over a diff's folded lines. */
static gint64
column_sum (const char *folded, guint field)
{
  g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);
  gint64 sum = 0;

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) words = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (words);

      sum += g_ascii_strtoll (words[n - 3 + field], NULL, 10);
    }
  return sum;
}

/* Both sides of a diff are transformed. */
static void
test_diff (void)
{
  g_autofree char *a = make_db ();
  g_autofree char *b = make_db ();
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--diff", a, b, "--export", "-f", "folded", "-q", "-o", dir, "--focus-subtree", "main;a", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *folded = NULL;

  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  folded = afg_test_read_output (dir, "flamegraph-diff.folded");
  g_assert_null (strstr (folded, "main"));
  g_assert_nonnull (strstr (folded, "a;F"));
  /* Each side of the JSON lists them. */
  args[5] = "json";
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  json = afg_test_read_output (dir, "flamegraph-diff.json");
  root = parse (json);
  for (guint s = 0; s < 2; s++)
    {
      JsonObject *side = json_object_get_object_member (json_node_get_object (root), s == 0 ? "a" : "b");
      JsonObject *t = json_array_get_object_element (json_object_get_array_member (side, "transforms"), 0);

      g_assert_cmpstr (json_object_get_string_member (t, "op"), ==, "focus-subtree");
      g_assert_cmpstr (json_object_get_string_member (t, "arg"), ==, "main;a");
    }
  g_assert_null (strstr (json, "\"main\""));
  afg_test_rm_rf (dir);
  remove_db (a);
  remove_db (b);
}

static gint64
side_root (JsonNode *root, const char *side, const char *member)
{
  JsonObject *object = json_object_get_object_member (json_node_get_object (root), side);

  return json_object_get_int_member (json_object_get_object_member (object, "root"), member);
}

/* A top frame a transform took out leaves its own time in its thread on
 * either side of a diff: the threads merge into the root, which keeps
 * it, so the folded stacks still add up to each side's total. */
static void
test_diff_thread_time (void)
{
  AfgTestEvent longer[G_N_ELEMENTS (shape)];
  g_autofree char *a = make_db ();
  g_autofree char *b = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *merged = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;

  memcpy (longer, shape, sizeof shape);
  longer[0].end = 1500;
  b = make_db_of (longer, G_N_ELEMENTS (longer));
  plain = run_diff (a, b, "folded", NULL);
  merged = run_diff (a, b, "folded", "main");
  g_assert_null (strstr (plain, "All threads"));
  g_assert_true (g_str_has_prefix (merged, "All threads 200 700\n"));
  g_assert_cmpint (column_sum (plain, 1), ==, 1000);
  g_assert_cmpint (column_sum (plain, 2), ==, 1500);
  g_assert_cmpint (column_sum (merged, 1), ==, 1000);
  g_assert_cmpint (column_sum (merged, 2), ==, 1500);
  /* The JSON's transformed sides give their root; an untransformed
   * diff stays as it was. */
  json = run_diff (a, b, "json", "main");
  root = parse (json);
  g_assert_cmpint (side_root (root, "a", "total_ns"), ==, 1000);
  g_assert_cmpint (side_root (root, "a", "self_ns"), ==, 200);
  g_assert_cmpint (side_root (root, "b", "total_ns"), ==, 1500);
  g_assert_cmpint (side_root (root, "b", "self_ns"), ==, 700);
  g_free (json);
  json = run_diff (a, b, "json", NULL);
  g_assert_null (strstr (json, "\"root\""));
  remove_db (a);
  remove_db (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-transforms/json", test_json);
  g_test_add_func ("/cli-transforms/order", test_order);
  g_test_add_func ("/cli-transforms/usage", test_usage);
  g_test_add_func ("/cli-transforms/empty-result", test_empty_result);
  g_test_add_func ("/cli-transforms/names-no-frame", test_names_no_frame);
  g_test_add_func ("/cli-transforms/empty-name", test_empty_name);
  g_test_add_func ("/cli-transforms/folder", test_folder);
  g_test_add_func ("/cli-transforms/top", test_top);
  g_test_add_func ("/cli-transforms/diff", test_diff);
  g_test_add_func ("/cli-transforms/diff-thread-time", test_diff_thread_time);
  return g_test_run ();
}
