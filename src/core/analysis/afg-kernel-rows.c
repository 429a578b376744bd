/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-kernel-rows"

#include "config.h"

#include <string.h>

#include "afg-kernel-rows.h"
#include "afg-math.h"
#include "afg-task-kinds.h"

static gint64
leaf_value (AfgWeight weight, const AfgNpuKernel *kernel)
{
  return afg_weight_has_kernels (weight) ? afg_weight_kernel_value (weight, kernel) : kernel->ns;
}

/* The weight's leaves: compute tasks in the compute weight, collectives
 * in the communication weights (a hidden one, 0 ns exposed, too), every
 * leaf in the others. Zero-length work counts, as the JSON's leaves count
 * it: a kernel's count here is the sum of its leaves' counts. */
static gboolean
of_weight (AfgWeight weight, const AfgNpuKernel *kernel)
{
  switch (weight)
    {
    case AFG_WEIGHT_COMPUTE:
      return kernel->kind == AFG_TASK_KIND_COMPUTE;
    case AFG_WEIGHT_COMM:
    case AFG_WEIGHT_EXPOSED:
      return kernel->kind == AFG_TASK_KIND_COMMUNICATION;
    case AFG_WEIGHT_HOST:
    case AFG_WEIGHT_NPU:
    default:
      return TRUE;
    }
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer tree)
{
  const AfgKernelRow *x = a, *y = b;
  AfgDocument *document = afg_tree_get_document (tree);

  if (x->value != y->value)
    return x->value > y->value ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return strcmp (afg_document_get_string (document, x->name), afg_document_get_string (document, y->name));
}

static void
add_leaf (GArray *rows, GHashTable *index, const AfgNpuKernel *k, gint64 value)
{
  gint64 key = (gint64) k->kind << 32 | k->name;
  gpointer at;
  AfgKernelRow *row;

  if (!g_hash_table_lookup_extended (index, &key, NULL, &at))
    {
      AfgKernelRow fresh = { k->name, k->kind, 0, 0, 0, 0 };

      g_array_append_val (rows, fresh);
      at = GUINT_TO_POINTER (rows->len);
      g_hash_table_insert (index, g_memdup2 (&key, sizeof key), at);
    }
  row = &g_array_index (rows, AfgKernelRow, GPOINTER_TO_UINT (at) - 1);
  row->count += k->count;
  row->ns = afg_sat_add (row->ns, k->ns);
  row->exposed_ns = afg_sat_add (row->exposed_ns, k->exposed_ns);
  row->value = afg_sat_add (row->value, value);
}

GArray *
afg_kernel_rows_new (const AfgTree *tree, AfgWeight weight)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (AfgKernelRow));
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  g_return_val_if_fail (tree != NULL, rows);

  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);

      for (guint j = 0; j < n; j++)
        if (of_weight (weight, &k[j]))
          add_leaf (rows, index, &k[j], leaf_value (weight, &k[j]));
    }
  g_array_sort_with_data (rows, compare_rows, (gpointer) tree);
  return rows;
}
