/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-flame-search.h"

typedef struct {
  guint32  node;
  gboolean under_match;
} SearchItem;

guint8 *
afg_flame_search_match (const AfgTree *tree, const char *needle)
{
  guint n = afg_tree_get_n_nodes (tree);
  guint8 *matches = g_new0 (guint8, n);

  if (needle == NULL || needle[0] == '\0')
    return matches;
  for (guint i = 1; i < n; i++)
    matches[i] = strcasestr (afg_tree_get_node_name (tree, i), needle) != NULL;
  return matches;
}

void
afg_flame_search_summarize (const AfgTree *tree, AfgColumn weight, const guint8 *matches,
                            guint32 root, AfgFlameSearchResult *result)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (SearchItem));
  SearchItem item = { root, FALSE };

  memset (result, 0, sizeof *result);
  result->view_ns = afg_tree_get_value (tree, weight, root);
  g_array_append_val (stack, item);
  while (stack->len > 0)
    {
      gboolean hit;

      item = g_array_index (stack, SearchItem, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      hit = matches[item.node];
      result->n_matches += hit;
      if (hit && !item.under_match)
        result->matched_ns += afg_tree_get_value (tree, weight, item.node);
      for (guint c = 0; c < nodes[item.node].n_children; c++)
        {
          SearchItem child = { nodes[item.node].first_child + c, hit || item.under_match };
          g_array_append_val (stack, child);
        }
    }
}
