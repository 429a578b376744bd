/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-html-page.h"
#include "afg-json-writer.h"

/* The page's device weights by kind are its kernel leaves: a frame's own
 * compute time and tasks, collective time and ops and exposed time are
 * its leaves' sums, and the page adds them up the tree, so only frames
 * that launched some are sent. Per such frame (frames skipped since the
 * last one sent, number of leaves), then per leaf (name index in
 * kernel_names, kind, count, ns, exposed_ns); kernel_names in order of
 * first use. */
static void
append_kernels (GString *out, const AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint32 first = 1 + afg_tree_get_n_threads (tree), last = first;

  g_string_append (out, ",\"kernels\":\"");
  for (guint32 i = first; i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);

      if (n == 0)
        continue;
      afg_html_append_varint (out, i - last);
      afg_html_append_varint (out, n);
      for (guint j = 0; j < n; j++)
        {
          gpointer at;

          if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (k[j].name), NULL, &at))
            {
              g_ptr_array_add (names, (gpointer) afg_document_get_string (document, k[j].name));
              at = GUINT_TO_POINTER (names->len - 1);
              g_hash_table_insert (index, GUINT_TO_POINTER (k[j].name), at);
            }
          afg_html_append_varint (out, GPOINTER_TO_UINT (at));
          afg_html_append_varint (out, k[j].kind);
          afg_html_append_varint (out, k[j].count);
          afg_html_append_varint (out, (guint64) MAX (k[j].ns, 0));
          afg_html_append_varint (out, (guint64) MAX (k[j].exposed_ns, 0));
        }
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

void
afg_html_append_kinds (GString *out, const AfgTree *tree)
{
  if (!afg_tree_has_column (tree, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS))
    return;
  append_kernels (out, tree);
}
