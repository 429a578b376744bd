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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/kinds/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/kinds/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  return g_test_run ();
}
