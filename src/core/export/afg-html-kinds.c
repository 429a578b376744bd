/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-html-page.h"
#include "afg-json-writer.h"
#include "afg-math.h"
#include "afg-task-kinds.h"

/* The page's device weights by kind are its kernel leaves: a frame's own
 * compute time and tasks, collective time and ops and exposed time are
 * its leaves' sums, and the page adds them up the tree, so only frames
 * that launched some are sent. kernel_names holds the leaves' names in
 * byte order. Per such frame: frames skipped since the last one sent,
 * its number of leaves; then per leaf, in order of kind (communication
 * first) then name, one varint (d << 3 | c) << 1 | comm — comm 1 for a
 * collective, d its name's place in kernel_names past the previous
 * leaf's of the same kind in the frame (from 0 for a kind's first), c
 * its count when 1-7, else 0 and the count follows — then ns, then for a
 * collective its exposed ns (a compute leaf's is 0). Most leaves so take
 * one varint for name, kind and count. The number of leaves is sent as
 * n << 1 | derived: derived 1 when the frame's own NPU tasks and NPU self
 * time (its npu_nodes total less its children's) are exactly its compute
 * leaves' — most kernel launches launch nothing else — and then the last
 * compute leaf's count and ns are left out: the page takes them as what
 * remains of those two. */

#define COUNT_BITS 3

typedef struct {
  guint32 rank;  /* the name's place in kernel_names */
  guint   comm;  /* 1 for a collective */
  const AfgNpuKernel *kernel;
} PageLeaf;

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The distinct names of the tree's leaves, in byte order; @rank maps a
 * string index to its place. */
static GPtrArray *
collect_names (const AfgTree *tree, GHashTable *rank)
{
  AfgDocument *document = afg_tree_get_document (tree);
  GPtrArray *names = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);

      for (guint j = 0; j < n; j++)
        if (g_hash_table_add (seen, GUINT_TO_POINTER (k[j].name)))
          g_ptr_array_add (names, (gpointer) afg_document_get_string (document, k[j].name));
    }
  g_ptr_array_sort (names, compare_strings);
  /* Equal texts under two indexes (none in practice) share one place. */
  for (guint i = 0; i < names->len; i++)
    g_hash_table_insert (rank, g_ptr_array_index (names, i), GUINT_TO_POINTER (i));
  return names;
}

static int
compare_leaves (gconstpointer a, gconstpointer b)
{
  const PageLeaf *x = a, *y = b;

  if (x->comm != y->comm)
    return x->comm > y->comm ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Whether the page can take the last compute leaf's count and ns from
 * the frame's NPU self tasks and time: @npu_self as the page derives it. */
static gboolean
leaves_are_npu_self (const AfgNpuKernel *k, guint n, gint64 npu_tasks, gint64 npu_self)
{
  gint64 count = 0, ns = 0;
  gboolean any = FALSE;

  for (guint j = 0; j < n; j++)
    if (k[j].kind != AFG_TASK_KIND_COMMUNICATION)
      {
        if (k[j].ns < 0)
          return FALSE;
        count += k[j].count;
        ns += k[j].ns;
        any = TRUE;
      }
  return any && count == npu_tasks && ns == npu_self;
}

static void
append_leaves (GString *out, PageLeaf *leaves, guint n, gboolean derived)
{
  qsort (leaves, n, sizeof (PageLeaf), compare_leaves);
  for (guint j = 0; j < n; j++)
    {
      const AfgNpuKernel *k = leaves[j].kernel;
      guint32 base = j > 0 && leaves[j - 1].comm == leaves[j].comm ? leaves[j - 1].rank : 0;
      gboolean left_out = derived && j == n - 1;
      guint64 count = !left_out && k->count >= 1 && k->count < (1u << COUNT_BITS) ? k->count : 0;

      afg_html_append_varint (out, (((guint64) (leaves[j].rank - base) << COUNT_BITS | count) << 1) | leaves[j].comm);
      if (left_out)
        continue;
      if (count == 0)
        afg_html_append_varint (out, k->count);
      afg_html_append_varint (out, (guint64) MAX (k->ns, 0));
      if (leaves[j].comm)
        afg_html_append_varint (out, (guint64) MAX (k->exposed_ns, 0));
    }
}

/* A column's self value as the page derives it: the total at @i less its
 * children's (NPU self time, a thread's own device time). */
static gint64
page_self (const AfgTree *tree, const gint64 *total, guint32 i)
{
  const AfgNode *node = afg_tree_get_node (tree, i);
  gint64 own = MAX (total[i], 0);

  for (guint32 c = node->first_child; c < node->first_child + node->n_children; c++)
    own = afg_sat_sub (own, MAX (total[c], 0));
  return MAX (own, 0);
}

static void
append_kernels (GString *out, const AfgTree *tree)
{
  const gint64 *npu_total = afg_tree_get_column (tree, AFG_COLUMN_NPU_TOTAL_NS);
  const gint64 *npu_tasks = afg_tree_get_column (tree, AFG_COLUMN_NPU_TASKS);
  AfgDocument *document = afg_tree_get_document (tree);
  g_autoptr(GHashTable) rank = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = collect_names (tree, rank);
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (PageLeaf));
  guint32 first = 1 + afg_tree_get_n_threads (tree), last = first;

  g_string_append (out, ",\"kernels\":\"");
  for (guint32 i = first; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);
      gboolean derived;

      if (n == 0)
        continue;
      derived = leaves_are_npu_self (k, n, MAX (npu_tasks[i], 0), page_self (tree, npu_total, i));
      afg_html_append_varint (out, i - last);
      afg_html_append_varint (out, (guint64) n << 1 | derived);
      g_array_set_size (leaves, n);
      for (guint j = 0; j < n; j++)
        {
          const char *name = afg_document_get_string (document, k[j].name);

          g_array_index (leaves, PageLeaf, j) = (PageLeaf) {
            GPOINTER_TO_UINT (g_hash_table_lookup (rank, name)), k[j].kind == AFG_TASK_KIND_COMMUNICATION, &k[j] };
        }
      append_leaves (out, (PageLeaf *) (void *) leaves->data, n, derived);
      last = i + 1;
    }
  g_string_append (out, "\",\"kernel_names\":[");
  for (guint i = 0; i < names->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      afg_json_append_string (out, g_ptr_array_index (names, i));
    }
  g_string_append_c (out, ']');
}

/* A thread has no leaves, but a top frame a transform merged into it
 * leaves the thread its own device time (docs/transforms.md): sent as
 * "thread_kinds", per such thread its index among the threads and its
 * own compute, collective and exposed ns; absent when no thread has any. */
static void
append_thread_kinds (GString *out, const AfgTree *tree)
{
  static const AfgColumn columns[] = {
    AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, AFG_COLUMN_COMM_TOTAL_NS, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS,
  };
  gboolean any = FALSE;

  for (guint32 t = 1; t <= afg_tree_get_n_threads (tree); t++)
    {
      gint64 own[G_N_ELEMENTS (columns)];
      gboolean some = FALSE;

      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          own[c] = page_self (tree, afg_tree_get_column (tree, columns[c]), t);
          some = some || own[c] != 0;
        }
      if (!some)
        continue;
      g_string_append_printf (out, "%s%u", any ? "," : ",\"thread_kinds\":[", t - 1);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        g_string_append_printf (out, ",%" G_GINT64_FORMAT, own[c]);
      any = TRUE;
    }
  if (any)
    g_string_append_c (out, ']');
}

void
afg_html_append_kinds (GString *out, const AfgTree *tree)
{
  if (!afg_tree_has_column (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS))
    return;
  append_kernels (out, tree);
  append_thread_kinds (out, tree);
}
