/* SPDX-License-Identifier: MIT */
/* The kernel leaves through the transforms: they follow each frame's own
 * time, so that on every node of a transformed tree the leaves of a kind
 * add up to that device weight's self time, and leaves that meet on a
 * node (frames merged by path) add up. On the real samples, whose frames
 * launch compute kernels and collectives. */
#include "config.h"

#include "afg-loader.h"
#include "afg-task-kinds.h"
#include "afg-test-db.h"
#include "afg-tree-builder.h"
#include "afg-tree-transform.h"

static AfgTree *
sample_tree (const char *name)
{
  g_autofree char *path = afg_test_sample_path (name, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
}

static AfgTree *
transform (AfgTree *tree, AfgTransformOp op, const char *arg)
{
  g_autoptr(AfgTransformList) list = afg_transform_list_new ();
  g_autoptr(GError) error = NULL;
  AfgTree *result;

  g_assert_true (afg_transform_list_append (list, op, arg, &error));
  result = afg_tree_transform (tree, list, NULL, &error);
  g_assert_no_error (error);
  return result;
}

/* Per frame: compute leaves = npu_compute_self, collectives = comm_self,
 * their exposed parts = comm_exposed_self. Returns the compute leaves' sum
 * over every node, with the compute time the threads keep of their own
 * (a removed top frame's). */
static gint64
check_leaves (const AfgTree *tree)
{
  gint64 all = 0;

  for (guint32 node = 1; node < afg_tree_get_n_nodes (tree); node++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, node, &n);
      gint64 compute = 0, comm = 0, exposed = 0;

      for (guint i = 0; i < n; i++)
        {
          if (k[i].kind == AFG_TASK_KIND_COMPUTE)
            compute += k[i].ns;
          else
            comm += k[i].ns, exposed += k[i].exposed_ns;
          /* One leaf per kind and name, in order. */
          if (i > 0)
            g_assert_true (k[i - 1].kind < k[i].kind
                           || (k[i - 1].kind == k[i].kind && k[i - 1].name != k[i].name));
        }
      all += compute;
      /* A merged top frame's own work stays in its thread's totals, but
       * leaves are a frame's: a thread has none, as in the JSON and the
       * page. */
      if (node <= afg_tree_get_n_threads (tree))
        {
          const AfgNode *thread = afg_tree_get_node (tree, node);
          gint64 own = afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, node);

          g_assert_cmpuint (n, ==, 0);
          for (guint32 c = 0; c < thread->n_children; c++)
            own -= afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, thread->first_child + c);
          all += own;
          continue;
        }
      g_assert_cmpint (compute, ==, afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, node));
      g_assert_cmpint (comm, ==, afg_tree_get_value (tree, AFG_COLUMN_COMM_SELF_NS, node));
      g_assert_cmpint (exposed, ==, afg_tree_get_value (tree, AFG_COLUMN_COMM_EXPOSED_SELF_NS, node));
    }
  return all;
}

static void
test_every_op (gconstpointer data)
{
  g_autoptr(AfgTree) tree = sample_tree (data);
  static const struct { AfgTransformOp op; const char *arg; } cases[] = {
    { AFG_TRANSFORM_MERGE_FUNCTION, "/^aclnn/" },
    { AFG_TRANSFORM_MERGE_FUNCTION, "/./" },
    { AFG_TRANSFORM_DROP_FUNCTION, "aten::add_" },
    { AFG_TRANSFORM_FOCUS_FUNCTION, "main.py(375): train" },
    { AFG_TRANSFORM_COLLAPSE_RECURSION, "/./" },
    { AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION, "/_call_impl/" },
  };
  gint64 whole = check_leaves (tree);

  g_assert_cmpint (whole, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AfgTree) result = transform (tree, cases[i].op, cases[i].arg);
      gint64 leaves = check_leaves (result);

      g_test_message ("%s %s: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " ns in compute leaves and threads' own time",
                      afg_transform_op_to_string (cases[i].op), cases[i].arg, leaves, whole);
      /* Merging and collapsing keep all device time; dropping and focusing
       * keep the root's compute total. */
      g_assert_cmpint (leaves, ==, afg_tree_get_value (result, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, AFG_TREE_ROOT));
      if (cases[i].op == AFG_TRANSFORM_MERGE_FUNCTION || cases[i].op == AFG_TRANSFORM_COLLAPSE_RECURSION
          || cases[i].op == AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION)
        g_assert_cmpint (leaves, ==, whole);
      else
        g_assert_cmpint (leaves, <, whole);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/transform-kernels/level0", "ascend_pytorch_profiler_level0_rank0", test_every_op);
  g_test_add_data_func ("/transform-kernels/level1", "ascend_pytorch_profiler_level1_rank0", test_every_op);
  return g_test_run ();
}
