/* SPDX-License-Identifier: MIT */
/* Categories in flamegraph.py's order (CANN, framework, Python),
 * checked on frame names taken from the real sample DBs, the same in the
 * profile (what the window colours by), the JSON export and the page. */
#include "config.h"

#include <string.h>

#include "afg-json-writer.h"
#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)

typedef struct {
  const char *name;
  const char *category;
} NamedCategory;

/* STRING_IDS values of ascend_pytorch_profiler_level{0,1}_rank0.db. The ones
 * marked "script: X" are where flamegraph.py decides otherwise: only our
 * extra keywords, which it leaves unknown. */
static const NamedCategory real_names[] = {
  /* PyTorch's own .py files: framework, not the user's Python. */
  { "torch/nn/modules/module.py(1520): _call_impl", "python_framework" },
  { "torch/nn/parallel/distributed.py(1513): forward", "python_framework" },
  { "torch/optim/optimizer.py(356): wrapper", "python_framework" },
  { "torch/multiprocessing/spawn.py(74): _wrap", "python_framework" },
  { "torch/utils/_foreach_utils.py(39): <dictcomp>", "python_framework" },
  { "torch_npu/profiler/profiler_interface.py(109): start_gc_detect", "python_framework" },
  { "<built-in function _has_torch_function_unary>", "python_framework" },
  { "aten::convolution", "python_framework" },
  { "aten::_log_softmax_backward_data", "python_framework" },
  { "c10d::allreduce_", "python_framework" },                               /* script: unknown */
  { "autograd::engine::evaluate_function: ConvolutionBackward0", "python_framework" }, /* script: unknown */
  /* CANN before everything. */
  { "aclnnMm", "cann" },
  { "aclnnInplaceCopy", "cann" },
  { "Dequeue@aclnnDropoutGenMaskV2", "cann" },
  { "HcclAllreduce", "cann" },
  { "Dequeue@HcclAllreduce", "cann" },
  { "acl_memcpy_host_to_device", "cann" },                                  /* script: unknown */
  { "Dequeue@acl_memcpy_host_to_device", "cann" },                          /* script: unknown */
  /* The user's and the standard library's Python. */
  { "main.py(375): train", "python" },
  { "main.py(282): main_worker", "python" },
  { "multiprocessing/spawn.py(116): spawn_main", "python" },
  { "contextlib.py(114): __enter__", "python" },
  { "threading.py(256): __enter__", "python" },
  { "<string>(1): <module>", "python" },                                    /* script: unknown */
  { "<built-in method _record_function_enter_new of PyCapsule object at 0xfffdc6b6af30>",
    "python" },                                                             /* script: unknown */
  { "<built-in method item of Tensor object at 0xfffdccf59680>", "python" }, /* script: unknown */
  { "<built-in function all>", "python" },                                  /* script: unknown */
  /* None of the keywords. */
  { "DistributedDataParallel.forward", "unknown" },
  { "nn.Module: DistributedDataParallel_0", "unknown" },
  { "Optimizer.step#SGD.step", "unknown" },
  { "<frozen importlib._bootstrap>(398): parent", "unknown" },
  { "Enqueue", "unknown" },
  { "Dequeue@Conv2D", "unknown" },
  { "record_event", "unknown" },
};

/* Every name a top-level frame of its own. */
static AfgTree *
load_names (const NamedCategory *cases, gsize n)
{
  AfgTestDb *db = afg_test_db_new (0);
  AfgTree *p;

  for (gsize i = 0; i < n; i++)
    afg_test_db_add (db, T1, i * 10, i * 10 + 5, cases[i].name);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  return p;
}

static void
assert_profile_categories (const AfgTree *p, const NamedCategory *cases, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *path = g_strconcat ("1/1;", cases[i].name, NULL);
      guint32 node = afg_test_find_node (p, path);

      g_assert_cmpuint (node, !=, AFG_NODE_NONE);
      g_test_message ("%s", cases[i].name);
      g_assert_cmpstr (afg_category_to_string (afg_tree_get_node_category (p, node)), ==,
                       cases[i].category);
    }
}

/* The window colours each frame by afg_tree_get_node_category(). */
static void
test_real_names_profile (void)
{
  g_autoptr(AfgTree) p = load_names (real_names, G_N_ELEMENTS (real_names));

  assert_profile_categories (p, real_names, G_N_ELEMENTS (real_names));
}

static void
test_real_names_json (void)
{
  g_autoptr(AfgTree) p = load_names (real_names, G_N_ELEMENTS (real_names));
  g_autoptr(GString) out = g_string_new (NULL);

  afg_json_write (p, out);
  for (gsize i = 0; i < G_N_ELEMENTS (real_names); i++)
    {
      g_autoptr(GString) member = g_string_new ("{\"name\":");
      g_autofree char *needle = NULL;

      afg_json_append_string (member, real_names[i].name);
      needle = g_strdup_printf ("%s,\"category\":\"%s\",", member->str, real_names[i].category);
      g_test_message ("%s", needle);
      g_assert_nonnull (strstr (out->str, needle));
    }
}

static int
compare_by_name (gconstpointer a, gconstpointer b)
{
  return strcmp (((const NamedCategory *) a)->name, ((const NamedCategory *) b)->name);
}

/* The page's name_categories: one digit per distinct name, names in byte
 * order, each an index into its categories array (the core's order). */
static void
test_real_names_page (void)
{
  g_autoptr(AfgTree) p = load_names (real_names, G_N_ELEMENTS (real_names));
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  NamedCategory sorted[G_N_ELEMENTS (real_names)];
  const char *digits;

  g_assert_true (afg_html_write (p, out, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out->str, "\"categories\":[\"python\",\"python_framework\",\"cann\",\"unknown\"]"));
  digits = strstr (out->str, "\"name_categories\":\"");
  g_assert_nonnull (digits);
  digits += strlen ("\"name_categories\":\"");

  memcpy (sorted, real_names, sizeof sorted);
  qsort (sorted, G_N_ELEMENTS (sorted), sizeof sorted[0], compare_by_name);
  for (gsize i = 0; i < G_N_ELEMENTS (sorted); i++)
    {
      g_test_message ("%s", sorted[i].name);
      g_assert_cmpint (digits[i], >=, '0');
      g_assert_cmpstr (afg_category_to_string (digits[i] - '0'), ==, sorted[i].category);
    }
  g_assert_cmpint (digits[G_N_ELEMENTS (sorted)], ==, '"');
}

/* Every keyword of every rule, in any case; a name with keywords of several
 * rules takes the first rule's category. */
static void
test_precedence (void)
{
  static const NamedCategory cases[] = {
    { "CANN_launch", "cann" }, { "AscendCL", "cann" }, { "aclnnAdd", "cann" },
    { "ACLRTSynchronizeStream", "cann" }, { "aclmdlExecute", "cann" },
    { "aclprofStart", "cann" }, { "HCCL", "cann" }, { "aclopCompile", "cann" },
    { "ACL_init", "cann" },
    { "Torch", "python_framework" }, { "Torch_npu_op", "python_framework" },
    { "ATEN::mul", "python_framework" }, { "C10::Dispatcher", "python_framework" },
    { "aten_sum", "python_framework" }, { "c10d::barrier", "python_framework" },
    { "Autograd::engine", "python_framework" },
    { "train.py(12): step", "python" }, { "TRAIN.PY(3): main", "python" },
    { "Python builtin", "python" }, { "<Built-in function len>", "python" },
    { "<MODULE>", "python" },
    /* Two rules match: the earlier wins. */
    { "hccl.py(10): all_reduce", "cann" }, { "aclnn in torch", "cann" },
    { "torch_python_binding", "python_framework" }, { "<built-in method of torch>", "python_framework" },
    /* Near misses. */
    { "acl", "unknown" }, { "c10", "unknown" }, { "py", "unknown" },
    { "module", "unknown" }, { "built-in", "unknown" },
  };
  g_autoptr(AfgTree) p = load_names (cases, G_N_ELEMENTS (cases));

  assert_profile_categories (p, cases, G_N_ELEMENTS (cases));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/categories/real-names/profile", test_real_names_profile);
  g_test_add_func ("/categories/real-names/json", test_real_names_json);
  g_test_add_func ("/categories/real-names/page", test_real_names_page);
  g_test_add_func ("/categories/precedence", test_precedence);
  return g_test_run ();
}
