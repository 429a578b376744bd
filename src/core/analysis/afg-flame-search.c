/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-flame-search.h"

typedef struct {
  guint32  node;
  gboolean under_match;
} SearchItem;

/* Case is ignored for every letter, as the page's toLowerCase() does, and
 * each distinct name is lowered once. Thread frames carry labels, not
 * names: the page leaves them out of a search too. */
gboolean
afg_flame_search_name_has (const char *name, const char *folded)
{
  g_autofree char *text = g_utf8_strdown (name, -1);

  return strstr (text, folded) != NULL;
}

guint8 *
afg_flame_search_match (const AfgTree *tree, const char *needle)
{
  guint n = afg_tree_get_n_nodes (tree);
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  guint8 *matches = g_new0 (guint8, n);
  g_autofree char *lower = NULL;
  g_autofree guint8 *is_thread = NULL;
  g_autoptr(GHashTable) by_name = NULL;

  if (needle == NULL || needle[0] == '\0')
    return matches;
  lower = g_utf8_strdown (needle, -1);
  by_name = g_hash_table_new (NULL, NULL);
  /* A thread's node stands for its label (a diff's tree has none). */
  is_thread = g_new0 (guint8, n);
  for (guint t = 0; t < afg_tree_get_n_threads (tree); t++)
    is_thread[afg_tree_get_thread (tree, t)->node] = 1;
  for (guint i = 1; i < n; i++)
    {
      gpointer name = GUINT_TO_POINTER (nodes[i].name), hit;

      if (is_thread[i])
        continue;
      if (!g_hash_table_lookup_extended (by_name, name, NULL, &hit))
        {
          hit = GINT_TO_POINTER (afg_flame_search_name_has (afg_tree_get_node_name (tree, i), lower));
          g_hash_table_insert (by_name, name, hit);
        }
      matches[i] = GPOINTER_TO_INT (hit);
    }
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

GArray *
afg_flame_search_list (const AfgTree *tree, const guint8 *matches, guint32 root)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  GArray *list = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      if (matches[node])
        g_array_append_val (list, node);
      /* Pushed last to first: popped in order. */
      for (guint c = nodes[node].n_children; c-- > 0;)
        {
          guint32 child = nodes[node].first_child + c;

          g_array_append_val (stack, child);
        }
    }
  return list;
}

guint32
afg_flame_search_reveal_root (const AfgTree *tree, AfgColumn weight, guint32 view_root, guint32 node,
                              double width_px, double min_px)
{
  double value = afg_tree_get_value (tree, weight, node);
  guint32 best = node;

  while (best != view_root)
    {
      guint32 parent = afg_tree_get_parent_in_view (tree, view_root, best);
      double under = parent != AFG_NODE_NONE ? afg_tree_get_value (tree, weight, parent) : 0;

      if (under <= 0 || value * width_px / under < min_px)
        break;
      best = parent;
    }
  return best;
}
