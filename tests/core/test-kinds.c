/* SPDX-License-Identifier: MIT */
/* Device time by kind: compute tasks, collectives and their exposure, and
 * the kernel leaves, on DBs made for each rule and on the real samples'
 * .kinds.expected and .kernels.expected (from the tree and from JSON). */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "afg-loader.h"
#include "afg-task-kinds.h"
#include "afg-test-db.h"
#include "afg-tree-builder.h"

#define COMPUTE AFG_TASK_KIND_COMPUTE
#define COMM    AFG_TASK_KIND_COMMUNICATION

static const AfgColumn kind_columns[] = {
  AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, AFG_COLUMN_NPU_COMPUTE_SELF_NS, AFG_COLUMN_NPU_COMPUTE_TASKS,
  AFG_COLUMN_COMM_TOTAL_NS, AFG_COLUMN_COMM_SELF_NS, AFG_COLUMN_COMM_OPS,
  AFG_COLUMN_COMM_EXPOSED_TOTAL_NS, AFG_COLUMN_COMM_EXPOSED_SELF_NS,
};

static char *
node_path (const AfgTree *tree, guint32 node)
{
  const AfgNode *n = afg_tree_get_node (tree, node);
  g_autofree char *parent = NULL;

  if (n->depth == 1)
    return g_strdup (afg_tree_get_node_name (tree, node));
  parent = node_path (tree, n->parent);
  return g_strconcat (parent, ";", afg_tree_get_node_name (tree, node), NULL);
}

/* The .kinds.expected format, from the tree's columns. */
static GPtrArray *
render_kinds (const AfgTree *tree)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint32 i = 1; i < afg_tree_get_n_nodes (tree); i++)
    {
      g_autofree char *path = node_path (tree, i);
      GString *line = g_string_new (path);

      for (guint c = 0; c < G_N_ELEMENTS (kind_columns); c++)
        g_string_append_printf (line, "\t%" G_GINT64_FORMAT, afg_tree_get_value (tree, kind_columns[c], i));
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  return lines;
}

/* The .kernels.expected format, from the tree's leaves. */
static GPtrArray *
render_kernels (const AfgTree *tree)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint32 i = 1; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);
      g_autofree char *path = n > 0 ? node_path (tree, i) : NULL;

      for (guint j = 0; j < n; j++)
        g_ptr_array_add (lines, g_strdup_printf ("%s;[%s] %s\t%" G_GUINT64_FORMAT "\t%" G_GINT64_FORMAT
                                                 "\t%" G_GINT64_FORMAT, path, afg_task_kind_to_string (k[j].kind),
                                                 afg_document_get_string (afg_tree_get_document (tree), k[j].name),
                                                 k[j].count, k[j].ns, k[j].exposed_ns));
    }
  return lines;
}

static const char * const json_keys[] = {
  "npu_compute_total_ns", "npu_compute_self_ns", "npu_compute_tasks", "comm_total_ns", "comm_self_ns",
  "comm_ops", "comm_exposed_total_ns", "comm_exposed_self_ns",
};

/* Both formats from a JSON export's nodes, checking each node's leaves
 * come sorted by kind, then name. */
static void
render_json_nodes (GPtrArray *kinds, GPtrArray *kernels, const char *prefix, JsonArray *children)
{
  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonObject *node = json_array_get_object_element (children, i);
      g_autofree char *path = g_strconcat (prefix, ";", json_object_get_string_member (node, "name"), NULL);
      JsonArray *leaves = json_object_get_array_member (node, "kernels");
      GString *line = g_string_new (path);
      g_autofree char *last = NULL;

      for (guint c = 0; c < G_N_ELEMENTS (json_keys); c++)
        g_string_append_printf (line, "\t%" G_GINT64_FORMAT, json_object_get_int_member (node, json_keys[c]));
      g_ptr_array_add (kinds, g_string_free (line, FALSE));
      for (guint k = 0; k < json_array_get_length (leaves); k++)
        {
          JsonObject *leaf = json_array_get_object_element (leaves, k);
          g_autofree char *key = g_strdup_printf ("%s\001%s", json_object_get_string_member (leaf, "kind"),
                                                  json_object_get_string_member (leaf, "name"));

          g_assert_true (last == NULL || strcmp (last, key) < 0);
          g_ptr_array_add (kernels, g_strdup_printf ("%s;[%s] %s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                                     "\t%" G_GINT64_FORMAT, path,
                                                     json_object_get_string_member (leaf, "kind"),
                                                     json_object_get_string_member (leaf, "name"),
                                                     json_object_get_int_member (leaf, "count"),
                                                     json_object_get_int_member (leaf, "ns"),
                                                     json_object_get_int_member (leaf, "exposed_ns")));
          g_free (last);
          last = g_steal_pointer (&key);
        }
      render_json_nodes (kinds, kernels, path, json_object_get_array_member (node, "children"));
    }
}

/* A thread line carries the three totals and zeros. */
static void
render_json (const char *db_path, GPtrArray *kinds, GPtrArray *kernels)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *json_path = g_build_filename (dir, "flamegraph.json", NULL);
  const char *args[] = { "--export", "-q", "-f", "json", "-o", dir, db_path, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *threads;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 3);
  threads = json_object_get_array_member (root, "threads");
  for (guint t = 0; t < json_array_get_length (threads); t++)
    {
      JsonObject *thread = json_array_get_object_element (threads, t);
      const char *label = json_object_get_string_member (thread, "label");

      g_ptr_array_add (kinds, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t0\t0\t%" G_GINT64_FORMAT "\t0\t0\t%"
                                               G_GINT64_FORMAT "\t0", label,
                                               json_object_get_int_member (thread, "npu_compute_total_ns"),
                                               json_object_get_int_member (thread, "comm_total_ns"),
                                               json_object_get_int_member (thread, "comm_exposed_total_ns")));
      render_json_nodes (kinds, kernels, label, json_object_get_array_member (thread, "children"));
    }
  afg_test_rm_rf (dir);
}

static void
test_sample (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *kinds_path = afg_test_sample_path (name, ".kinds.expected");
  g_autofree char *kernels_path = afg_test_sample_path (name, ".kernels.expected");
  g_autoptr(GPtrArray) kinds = afg_test_read_lines (kinds_path);
  g_autoptr(GPtrArray) kernels = afg_test_read_lines (kernels_path);
  g_autoptr(GPtrArray) json_kinds = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) json_kernels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = afg_test_load_tree (db_path, NULL, NULL, NULL, &error);
  g_autoptr(GPtrArray) tree_kinds = NULL;
  g_autoptr(GPtrArray) tree_kernels = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (kinds->len, >, 1000);
  g_assert_cmpuint (kernels->len, >, 100);
  g_assert_cmpuint (afg_document_get_kind_warnings (afg_tree_get_document (tree))->len, ==, 0);
  tree_kinds = render_kinds (tree);
  tree_kernels = render_kernels (tree);
  afg_test_assert_lines (tree_kinds, kinds, name);
  afg_test_assert_lines (tree_kernels, kernels, name);
  render_json (db_path, json_kinds, json_kernels);
  afg_test_assert_lines (json_kinds, kinds, name);
  afg_test_assert_lines (json_kernels, kernels, name);
}

#define T1 GTID (1, 1)

typedef AfgTestDb KindsTestDb;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KindsTestDb, afg_test_db_free)

static gint64
value_at (const AfgTree *tree, AfgColumn column, const char *path)
{
  g_autofree char *full = g_strconcat ("1/1;main", path, NULL);
  guint32 node = afg_test_find_node (tree, full);

  g_assert_cmpuint (node, !=, AFG_NODE_NONE);
  return afg_tree_get_value (tree, column, node);
}

/* The leaves of a frame as "kind name count ns exposed" lines. */
static char *
kernels_at (const AfgTree *tree, const char *path)
{
  g_autofree char *full = g_strconcat ("1/1;main", path, NULL);
  guint32 node = afg_test_find_node (tree, full);
  GString *out = g_string_new (NULL);
  guint n;
  const AfgNpuKernel *k = afg_tree_get_kernels (tree, node, &n);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s %s %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                            i > 0 ? "|" : "", afg_task_kind_to_string (k[i].kind),
                            afg_document_get_string (afg_tree_get_document (tree), k[i].name),
                            k[i].count, k[i].ns, k[i].exposed_ns);
  return g_string_free (out, FALSE);
}

/* A row of main launching the tasks of connection id @conn (api id @conn). */
static void
add_launch (AfgTestDb *db, const char *name, gint64 start, gint64 end, gint64 conn)
{
  afg_test_db_add_with_connection (db, T1, start, end, name, conn);
  afg_test_db_link (db, conn, conn);
}

/* Every rule of the kinds at once (test_rules checks each). */
static AfgTestDb *
rules_db_new (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  gint64 id;

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "compute", 100, 200, 10);
  add_launch (db, "comm", 300, 400, 20);
  add_launch (db, "other", 500, 600, 30);
  add_launch (db, "wait", 650, 700, 40);
  add_launch (db, "lonely", 700, 800, 50);
  /* compute: by type (upper-cased, spaces as _), or in COMPUTE_TASK_INFO */
  afg_test_db_add_typed_task (db, 1000, 1010, 10, "KERNEL_AICORE");
  id = afg_test_db_add_typed_task (db, 1010, 1020, 10, "Notify Wait");
  afg_test_db_add_compute_info (db, id, "MatMul");
  afg_test_db_add_compute_info (db, id, "NotThisName");
  afg_test_db_add_typed_task (db, 2500, 2550, 10, "aiv_x");
  afg_test_db_add_typed_task (db, 1020, 1030, 10, "Memcpy Async");
  afg_test_db_add_task (db, 1030, 1040, 10);  /* taskType 0: no such string */
  afg_test_db_add_typed_task (db, 1040, 1050, 10, NULL);
  afg_test_db_add_typed_task (db, 1500, 1600, 30, "mix aic");
  /* unlinked compute hides collectives too */
  afg_test_db_add_typed_task (db, 2100, 2300, AFG_TEST_NULL, "FFTS_PLUS");
  afg_test_db_add_typed_task (db, 2200, 2400, AFG_TEST_NO_LINK, "FFTS_PLUS");
  /* communication: a task of connection 20 is in COMMUNICATION_TASK_INFO,
   * 40 is a COMMUNICATION_OP's, whatever its times */
  afg_test_db_add_typed_task (db, 2000, 2100, 20, "AI_CORE");
  afg_test_db_add_comm_task_info (db, afg_test_db_add_typed_task (db, 2000, 2050, 20, "Notify Wait"));
  afg_test_db_add_typed_task (db, 2000, 2010, 40, "AI_CORE");
  afg_test_db_add_collective (db, AFG_TEST_NULL, 3000, 40, "hcom_broken__1_1_1");
  afg_test_db_add_collective (db, 2000, 2600, 20, "hcom_allReduce__210_0_1");
  afg_test_db_add_collective (db, 2700, 2800, 20, "hcom_allReduce__211_0_1");
  afg_test_db_add_collective (db, 5000, 5100, 50, "hcom_broadcast__1_2");
  afg_test_db_add_collective (db, 6000, 6100, AFG_TEST_NO_LINK, "hcom_lost__1_1_1");
  afg_test_db_add_collective (db, 6200, 6100, 20, "hcom_backwards__1_1_1");
  return db;
}

static void
test_rules (void)
{
  g_autoptr(KindsTestDb) db = rules_db_new ();
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  const AfgNpuKindStats *stats = afg_document_get_npu_kind_stats (document);
  g_autofree char *compute = kernels_at (tree, ";compute");
  g_autofree char *comm = kernels_at (tree, ";comm");
  g_autofree char *other = kernels_at (tree, ";other");
  g_autofree char *lonely = kernels_at (tree, ";lonely");
  g_autofree char *main_kernels = kernels_at (tree, "");

  g_assert_cmpuint (afg_document_get_kind_warnings (document)->len, ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, ";compute"), ==, 70);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_TASKS, ";compute"), ==, 3);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TASKS, ";compute"), ==, 6);
  g_assert_cmpstr (compute, ==, "compute KERNEL_AICORE 1 10 0|compute MatMul 1 10 0|compute aiv_x 1 50 0");
  /* one leaf for both, each op once with its own time; exposed: 250 + 100 */
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, ";comm"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_SELF_NS, ";comm"), ==, 700);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_OPS, ";comm"), ==, 2);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_EXPOSED_SELF_NS, ";comm"), ==, 350);
  g_assert_cmpstr (comm, ==, "communication hcom_allReduce 2 700 350");
  g_assert_cmpstr (other, ==, "compute mix aic 1 100 0");
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_TASKS, ";wait"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_OPS, ";wait"), ==, 0);
  /* a collective links through its own connection id, with no task */
  g_assert_cmpstr (lonely, ==, "communication hcom_broadcast__1_2 1 100 100");
  g_assert_cmpstr (main_kernels, ==, "");
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, ""), ==, 170);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_TOTAL_NS, ""), ==, 800);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS, ""), ==, 450);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_SELF_NS, ""), ==, 0);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_COMM_TOTAL_NS, AFG_TREE_ROOT), ==, 800);
  /* the whole DB: linked or not */
  g_assert_cmpint (stats->compute_ns, ==, 570);
  g_assert_cmpuint (stats->compute_tasks, ==, 6);
  g_assert_cmpint (stats->comm_ns, ==, 900);
  g_assert_cmpuint (stats->comm_ops, ==, 4);
  g_assert_cmpint (stats->exposed_ns, ==, 550);
  g_assert_cmpint (stats->other_ns, ==, 30);
  g_assert_cmpuint (stats->other_tasks, ==, 3);
}

/* A step holds one of two collectives; the exposure still counts compute
 * launched outside it. */
static void
test_scope (void)
{
  g_autoptr(KindsTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope = { TRUE, 0, 0 };

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "in", 100, 200, 1);
  add_launch (db, "out", 5000, 5100, 2);
  add_launch (db, "kernel", 6000, 6100, 3);
  afg_test_db_add_collective (db, 1000, 2000, 1, "hcom_allGather__1_2_3");
  afg_test_db_add_collective (db, 3000, 4000, 2, "hcom_allGather__1_2_4");
  afg_test_db_add_typed_task (db, 1500, 1700, 3, "AI_CORE");
  document = afg_test_db_load_document (db);
  scope.start_ns = 0;
  scope.end_ns = 1000;
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_TOTAL_NS, ""), ==, 1000);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS, ""), ==, 800);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, ""), ==, 0);
  g_assert_cmpuint (afg_test_find_node (tree, "1/1;main;out"), ==, AFG_NODE_NONE);
}

/* A missing table is silent; one that is there but unreadable gives one
 * warning line and counts as empty. */
static void
test_unusable (void)
{
  g_autoptr(KindsTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const GPtrArray *warnings;

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "op", 100, 200, 1);
  afg_test_db_add_typed_task (db, 1000, 1100, 1, "AI_CORE");
  afg_test_db_exec (db, "CREATE TABLE COMPUTE_TASK_INFO_DATA (name INTEGER, globalTaskId INTEGER);"
                        "CREATE VIEW COMPUTE_TASK_INFO AS SELECT * FROM COMPUTE_TASK_INFO_DATA;"
                        "CREATE TABLE COMMUNICATION_OP (startNs INTEGER, endNs INTEGER, connectionId INTEGER)");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  warnings = afg_document_get_kind_warnings (document);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), "COMPUTE_TASK_INFO"));
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 1), "opName"));
  g_assert_null (strchr (g_ptr_array_index (warnings, 0), '\n'));
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, ";op"), ==, 100);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_TOTAL_NS, ""), ==, 0);
}

/* Without taskType the tasks are all other, with a warning; without
 * TASK there are no kind columns at all. */
static void
test_no_columns (void)
{
  g_autoptr(KindsTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(KindsTestDb) host = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) host_tree = NULL;

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "op", 100, 200, 1);
  afg_test_db_add_typed_task (db, 1000, 1100, 1, "AI_CORE");
  afg_test_db_exec (db, "ALTER TABLE TASK DROP COLUMN taskType");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (afg_document_get_kind_warnings (document)->len, ==, 1);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, ";op"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, ";op"), ==, 100);
  g_assert_cmpint (afg_document_get_npu_kind_stats (document)->other_ns, ==, 100);
  afg_test_db_add (host, T1, 0, 10000, "main");
  host_tree = afg_test_db_load (host);
  g_assert_false (afg_tree_has_column (host_tree, AFG_COLUMN_COMM_TOTAL_NS));
  g_assert_null (afg_document_get_npu_kind_stats (afg_tree_get_document (host_tree)));
}

static void
test_strip (void)
{
  static const char * const cases[][2] = {
    { "hcom_allReduce__210_0_1", "hcom_allReduce" }, { "hcom__1_2_3", "hcom" }, { "__1_2_3", "" },
    { "hcom_allReduce_210_0_1", "hcom_allReduce_210_0_1" }, { "hcom__1_2", "hcom__1_2" },
    { "hcom__1_2_x", "hcom__1_2_x" }, { "hcom__1__2_3", "hcom__1__2_3" }, { "x__1_2_3y", "x__1_2_3y" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpuint (afg_task_kinds_strip_op_suffix (cases[i][0]), ==, strlen (cases[i][1]));
}

/* Runs the command line on @path with @extra options (and -o DIR with
 * --export: --top alone takes none); returns the file it wrote (NULL when
 * @file is NULL), @out its stdout and @err its stderr. */
static char *
run_cli (const char *path, const char * const *extra, const char *file, int status, char **out, char **err)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *written = file ? g_build_filename (dir, file, NULL) : NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  char *text = NULL;
  gboolean export = FALSE;

  for (guint i = 0; extra[i] != NULL; i++)
    {
      g_ptr_array_add (args, (gpointer) extra[i]);
      export |= strcmp (extra[i], "--export") == 0;
    }
  if (export)
    {
      g_ptr_array_add (args, "-o");
      g_ptr_array_add (args, dir);
    }
  g_ptr_array_add (args, (gpointer) path);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (afg_test_run_cli ((const char * const *) args->pdata, FALSE, out, err), ==, status);
  if (written != NULL)
    g_assert_true (g_file_get_contents (written, &text, NULL, NULL));
  afg_test_rm_rf (dir);
  return text;
}

static gint64
sum_folded (const char *folded)
{
  g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);
  gint64 sum = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      sum += g_ascii_strtoll (strrchr (lines[i], ' ') + 1, NULL, 10);
  return sum;
}

/* Folded stacks in each weight sum to its total; --kernels puts it on
 * the leaves; the summary line gives the DB's sums by kind. */
static void
test_cli_folded (void)
{
  g_autoptr(KindsTestDb) db = rules_db_new ();
  const char *compute_args[] = { "--export", "-f", "folded", "--weight", "compute", "--kernels", NULL };
  const char *exposed_args[] = { "--export", "-f", "folded", "--weight", "exposed", NULL };
  const char *comm_args[] = { "--export", "-f", "folded", "--weight", "comm", "--kernels", NULL };
  const char *host_kernels[] = { "--export", "-f", "folded", "--kernels", NULL };
  g_autofree char *compute = NULL;
  g_autofree char *exposed = NULL;
  g_autofree char *comm = NULL;
  g_autofree char *err = NULL;
  g_autofree char *usage = NULL;

  afg_test_db_close (db);
  compute = run_cli (db->path, compute_args, "flamegraph.folded", 0, NULL, &err);
  g_assert_cmpstr (compute, ==, "1/1;main;compute;[compute] KERNEL_AICORE 10\n"
                                "1/1;main;compute;[compute] MatMul 10\n"
                                "1/1;main;compute;[compute] aiv_x 50\n"
                                "1/1;main;other;[compute] mix aic 100\n");
  g_assert_nonnull (strstr (err, "NPU: compute 570 ns, communication 900 ns (550 ns exposed), other 30 ns\n"));
  exposed = run_cli (db->path, exposed_args, "flamegraph.folded", 0, NULL, NULL);
  g_assert_cmpstr (exposed, ==, "1/1;main;comm 350\n1/1;main;lonely 100\n");
  g_assert_cmpint (sum_folded (exposed), ==, 450);
  comm = run_cli (db->path, comm_args, "flamegraph.folded", 0, NULL, NULL);
  g_assert_cmpstr (comm, ==, "1/1;main;comm;[communication] hcom_allReduce 700\n"
                             "1/1;main;lonely;[communication] hcom_broadcast__1_2 100\n");
  g_assert_null (run_cli (db->path, host_kernels, NULL, 2, NULL, &usage));
  g_assert_nonnull (strstr (usage, "--kernels needs --weight compute, comm or exposed"));
}

/* --top in a device weight ranks frames by it; with --kernels, kernels
 * across frames. */
static void
test_cli_top (void)
{
  g_autoptr(KindsTestDb) db = rules_db_new ();
  const char *kernels_args[] = { "--top", "2", "--weight", "compute", "--kernels", NULL };
  const char *comm_args[] = { "--top", "1", "--weight", "comm", NULL };
  g_autofree char *kernels = NULL;
  g_autofree char *comm = NULL;
  g_auto(GStrv) lines = NULL;

  afg_test_db_close (db);
  run_cli (db->path, kernels_args, NULL, 0, &kernels, NULL);
  lines = g_strsplit (kernels, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_suffix (lines[1], "[compute] mix aic"));
  g_assert_nonnull (strstr (lines[1], "100 ns"));
  g_assert_true (g_str_has_suffix (lines[2], "[compute] aiv_x"));
  run_cli (db->path, comm_args, NULL, 0, &comm, NULL);
  g_assert_nonnull (strstr (comm, "       1       700 ns       700 ns    87.5%  comm\n"));
}

/* --top --kernels counts every leaf of the weight's kind, zero-length
 * ones too, as the JSON's leaves do: K has 1000 + 0 ns under a and 0 ns
 * under b (count 3), Z only 0 ns; collective hc 1000 + 0 ns under d and
 * e (count 2), hidden 400 ns entirely behind K's compute (0 ns exposed, still listed
 * in the exposed weight). */
static void
test_cli_top_zero (void)
{
  g_autoptr(KindsTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  const char *compute_args[] = { "--top", "10", "--weight", "compute", "--kernels", NULL };
  const char *comm_args[] = { "--top", "10", "--weight", "comm", "--kernels", NULL };
  const char *exposed_args[] = { "--top", "10", "--weight", "exposed", "--kernels", NULL };
  g_autofree char *compute = NULL;
  g_autofree char *comm = NULL;
  g_autofree char *exposed = NULL;

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "a", 100, 200, 10);
  add_launch (db, "b", 300, 400, 20);
  add_launch (db, "c", 500, 600, 30);
  afg_test_db_add_typed_task (db, 1000, 2000, 10, "KERNEL_K");
  afg_test_db_add_typed_task (db, 2000, 2000, 10, "KERNEL_K");
  afg_test_db_add_typed_task (db, 2100, 2100, 20, "KERNEL_K");
  afg_test_db_add_typed_task (db, 2200, 2200, 30, "KERNEL_Z");
  /* their own launches: a collective's connection id makes tasks communication */
  add_launch (db, "d", 700, 800, 40);
  add_launch (db, "e", 900, 950, 50);
  afg_test_db_add_collective (db, 3000, 4000, 40, "hc__1_1_1");
  afg_test_db_add_collective (db, 4100, 4100, 50, "hc__1_1_2");
  afg_test_db_add_collective (db, 1100, 1500, 50, "hidden__1_1_3");
  afg_test_db_close (db);
  run_cli (db->path, compute_args, NULL, 0, &compute, NULL);
  g_assert_cmpstr (compute, ==, "       count      compute     share  kernel\n"
                                "           3       1.0 µs    100.0%  [compute] KERNEL_K\n"
                                "           1         0 ns      0.0%  [compute] KERNEL_Z\n");
  run_cli (db->path, comm_args, NULL, 0, &comm, NULL);
  g_assert_cmpstr (comm, ==, "       count         comm     share  kernel\n"
                             "           2       1.0 µs     71.4%  [communication] hc\n"
                             "           1       400 ns     28.6%  [communication] hidden\n");
  run_cli (db->path, exposed_args, NULL, 0, &exposed, NULL);
  g_assert_cmpstr (exposed, ==, "       count      exposed     share  kernel\n"
                                "           2       1.0 µs    100.0%  [communication] hc\n"
                                "           1         0 ns      0.0%  [communication] hidden\n");
}

/* -f trace: each task's kind is its category. */
static void
test_cli_trace (void)
{
  g_autoptr(KindsTestDb) db = rules_db_new ();
  const char *args[] = { "--export", "-f", "trace", NULL };
  g_autofree char *trace = NULL;
  guint counts[3] = { 0 };
  const char *cats[] = { "\"cat\":\"compute\"", "\"cat\":\"communication\"", "\"cat\":\"other\"" };

  afg_test_db_close (db);
  trace = run_cli (db->path, args, "flamegraph.trace.json", 0, NULL, NULL);
  for (guint c = 0; c < 3; c++)
    for (const char *p = trace; (p = strstr (p, cats[c])) != NULL; p++)
      counts[c]++;
  g_assert_cmpuint (counts[0], ==, 6);
  g_assert_cmpuint (counts[1], ==, 3);
  g_assert_cmpuint (counts[2], ==, 3);
}

static void
test_cli_help (void)
{
  const char *args[] = { "--help", NULL };
  g_autofree char *out = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--kernels"));
  g_assert_nonnull (strstr (out, "host (default), npu, compute, comm or exposed"));
  g_assert_nonnull (strstr (out, "exposed (the part of the collectives"));
}

/* The folded kernel leaves of a sample are its .kernels.expected lines,
 * in each device weight: the command line agrees with the tree and JSON. */
static void
test_sample_folded (void)
{
  const char *name = "ascend_pytorch_profiler_level1_rank0";
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *kernels_path = afg_test_sample_path (name, ".kernels.expected");
  g_autoptr(GPtrArray) kernels = afg_test_read_lines (kernels_path);
  const char *weights[] = { "compute", "comm", "exposed" };

  for (guint w = 0; w < G_N_ELEMENTS (weights); w++)
    {
      const char *args[] = { "--export", "-q", "-f", "folded", "--weight", weights[w], "--kernels", NULL };
      g_autofree char *folded = run_cli (db_path, args, "flamegraph.folded", 0, NULL, NULL);
      g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);
      g_autoptr(GPtrArray) actual = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
        g_ptr_array_add (actual, g_strdup (lines[i]));
      for (guint i = 0; i < kernels->len; i++)
        {
          g_auto(GStrv) f = g_strsplit (g_ptr_array_index (kernels, i), "\t", -1);
          gboolean compute = strstr (f[0], ";[compute] ") != NULL;
          const char *value = w == 2 ? f[3] : f[2];

          if (compute == (w == 0) && g_ascii_strtoll (value, NULL, 10) > 0)
            g_ptr_array_add (expected, g_strdup_printf ("%s %s", f[0], value));
        }
      afg_test_assert_lines (actual, expected, weights[w]);
    }
}

/* --diff in a device weight: the a/b values are the samples' collective
 * time and its exposed part (their .kernels.expected figures). */
static void
test_cli_diff (void)
{
  g_autofree char *a = afg_test_sample_path ("ascend_pytorch_profiler_level0_rank0", ".db");
  g_autofree char *b = afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", ".db");
  const char *weights[][2] = { { "comm", "89880576 102108100" }, { "exposed", "85862101 98053306" } };

  for (guint w = 0; w < G_N_ELEMENTS (weights); w++)
    {
      const char *args[] = { "--diff", "--export", "-q", "-f", "folded", "--weight", weights[w][0], a, NULL };
      g_autofree char *folded = run_cli (b, args, "flamegraph-diff.folded", 0, NULL, NULL);
      g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);
      guint n_weighed = 0;

      for (guint i = 0; lines[i] != NULL; i++)
        if (*lines[i] != '\0' && !g_str_has_suffix (lines[i], " 0 0"))
          {
            g_assert_true (g_str_has_suffix (lines[i], weights[w][1]));
            g_assert_nonnull (strstr (lines[i], ";HcclAllreduce;HcclAllreduce "));
            n_weighed++;
          }
      g_assert_cmpuint (n_weighed, ==, 1);
    }
}

/* Hostile values: text times make no collective (its connection id still
 * counts for rule 1), ids may be whole decimal text, an overflowing
 * collective is skipped and sums saturate, a NULL info name falls back to
 * the taskType string, an unknown one reads <unknown:ID>, a NULL
 * globalTaskId in COMMUNICATION_TASK_INFO matches nothing. */
static void
test_hostile (void)
{
  g_autoptr(KindsTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *named = NULL;
  g_autofree char *text_ids = NULL;
  g_autofree char *info = NULL;
  g_autofree char *minus = NULL;
  g_autofree char *sql = NULL;
  gint64 id;

  afg_test_db_add (db, T1, 0, 10000, "main");
  add_launch (db, "text", 100, 200, 1);
  add_launch (db, "named", 300, 400, 2);
  add_launch (db, "textids", 500, 600, 3);
  add_launch (db, "info", 700, 800, 4);
  afg_test_db_add_typed_task (db, 1000, 1100, 1, "AI_CORE");
  afg_test_db_exec (db, "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs, endNs INTEGER,"
                        " connectionId INTEGER);"
                        "INSERT INTO COMMUNICATION_OP VALUES (NULL, '1000', '2000', 1),"
                        " (NULL, 0, 9223372036854775807, 2), (NULL, -9223372036854775807, 9223372036854775807, 2),"
                        " (NULL, 10, 20, '3')");
  afg_test_db_add_compute_info (db, afg_test_db_add_typed_task (db, 3000, 3010, 4, "AI_CORE"), NULL);
  id = afg_test_db_add_typed_task (db, 3010, 3030, 4, "Notify Wait");
  sql = g_strdup_printf ("INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId) VALUES (987654, %" G_GINT64_FORMAT ")", id);
  afg_test_db_exec (db, sql);
  /* A name id of -1 has no string, even where STRING_IDS holds one: the
   * kernel is named by its type. */
  add_launch (db, "minus", 900, 1000, 5);
  id = afg_test_db_add_typed_task (db, 4000, 4010, 5, "AI_VECTOR_CORE");
  g_free (sql);
  sql = g_strdup_printf ("INSERT INTO STRING_IDS (id, value) VALUES (-1, 'minus one');"
                         "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId) VALUES (-1, %" G_GINT64_FORMAT ")", id);
  afg_test_db_exec (db, sql);
  afg_test_db_add_comm_task_info (db, AFG_TEST_NULL);
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_COMPUTE_TASKS, ";text"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_OPS, ";text"), ==, 0);
  named = kernels_at (tree, ";named");
  /* Exposed: all but the compute tasks' 10 + 20 + 10 ns. */
  g_assert_cmpstr (named, ==, "communication <unknown:NULL> 1 9223372036854775807 9223372036854775767");
  text_ids = kernels_at (tree, ";textids");
  g_assert_cmpstr (text_ids, ==, "communication <unknown:NULL> 1 10 10");
  info = kernels_at (tree, ";info");
  g_assert_cmpstr (info, ==, "compute <unknown:987654> 1 20 0|compute AI_CORE 1 10 0");
  g_assert_cmpint (value_at (tree, AFG_COLUMN_COMM_TOTAL_NS, ""), ==, G_MAXINT64);
  g_assert_cmpuint (afg_document_get_npu_kind_stats (document)->comm_ops, ==, 2);
  g_assert_cmpuint (afg_document_get_npu_kind_stats (document)->compute_tasks, ==, 3);
  minus = kernels_at (tree, ";minus");
  g_assert_cmpstr (minus, ==, "compute AI_VECTOR_CORE 1 10 0");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/kinds/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/kinds/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  g_test_add_func ("/kinds/rules", test_rules);
  g_test_add_func ("/kinds/scope", test_scope);
  g_test_add_func ("/kinds/unusable", test_unusable);
  g_test_add_func ("/kinds/no-columns", test_no_columns);
  g_test_add_func ("/kinds/strip", test_strip);
  g_test_add_func ("/kinds/hostile", test_hostile);
  g_test_add_func ("/kinds/cli/folded", test_cli_folded);
  g_test_add_func ("/kinds/cli/top", test_cli_top);
  g_test_add_func ("/kinds/cli/top-zero", test_cli_top_zero);
  g_test_add_func ("/kinds/cli/trace", test_cli_trace);
  g_test_add_func ("/kinds/cli/help", test_cli_help);
  g_test_add_func ("/kinds/sample/folded", test_sample_folded);
  g_test_add_func ("/kinds/cli/diff", test_cli_diff);
  return g_test_run ();
}
