/* SPDX-License-Identifier: MIT */
/* The diff's JSON and folded stacks. */
#include "config.h"

#include "afg-diff-writers.h"
#include "afg-json-writer.h"

/* Both sides' trees have the same nodes and names: B's stands for both. */
#define NODES(diff) afg_diff_shape_get_tree ((diff), AFG_DIFF_SIDE_B)

static void
append_side (GString *out, const char *key, const AfgTree *source)
{
  g_string_append_printf (out, "\"%s\":{", key);
  afg_json_append_source (out, afg_tree_get_document (source));
  g_string_append_c (out, ',');
  afg_json_append_stats (out, afg_tree_get_stats (source));
  afg_json_append_scope (out, afg_tree_get_scope (source));
  g_string_append_c (out, '}');
}

static void
append_values (GString *out, const char *key, AfgDiffShape *diff, AfgDiffSide side, guint32 node)
{
  AfgDiffValues v;

  afg_diff_shape_get_values (diff, side, node, &v);
  g_string_append_printf (out, ",\"%s\":{\"calls\":", key);
  afg_json_append_int (out, v.calls);
  g_string_append (out, ",\"total_ns\":");
  afg_json_append_int (out, v.total_ns);
  g_string_append (out, ",\"self_ns\":");
  afg_json_append_int (out, v.self_ns);
  g_string_append_c (out, '}');
}

static void
append_node_open (GString *out, guint32 node, gpointer data)
{
  AfgDiffShape *diff = data;

  g_string_append (out, "{\"name\":");
  afg_json_append_string (out, afg_tree_get_node_name (NODES (diff), node));
  g_string_append (out, ",\"category\":\"");
  g_string_append (out, afg_category_to_string (afg_tree_get_node_category (NODES (diff), node)));
  g_string_append_c (out, '"');
  append_values (out, "a", diff, AFG_DIFF_SIDE_A, node);
  append_values (out, "b", diff, AFG_DIFF_SIDE_B, node);
  g_string_append (out, ",\"children\":[");
}

void
afg_diff_json_write (AfgDiffShape *diff, GString *out)
{
  AfgTree *b;
  gboolean merged;

  g_return_if_fail (diff != NULL && out != NULL);

  b = afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B);
  merged = (afg_tree_get_flags (b) & AFG_TREE_MERGE_ADDRESSES) != 0;
  g_string_append (out, "{\"format\":\"ascend-flamegraph-diff\",\"version\":1,");
  append_side (out, "a", afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A));
  g_string_append_c (out, ',');
  append_side (out, "b", b);
  g_string_append_printf (out, ",\"options\":{\"merge_addresses\":%s},", merged ? "true" : "false");
  afg_json_append_children (out, NODES (diff), AFG_TREE_ROOT, append_node_open, diff);
  g_string_append (out, "}\n");
}

typedef struct {
  guint32 node;
  gsize   path_len;  /* of the parent's path */
} Pending;

static void
append_value_line (GString *out, const GString *path, AfgDiffShape *diff, guint32 node)
{
  AfgDiffValues a, b;

  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_A, node, &a);
  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_B, node, &b);
  if (a.self_ns <= 0 && b.self_ns <= 0)
    return;
  g_string_append_len (out, path->str, path->len);
  g_string_append_c (out, ' ');
  afg_json_append_int (out, a.self_ns);
  g_string_append_c (out, ' ');
  afg_json_append_int (out, b.self_ns);
  g_string_append_c (out, '\n');
}

void
afg_diff_folded_write (AfgDiffShape *diff, GString *out)
{
  const AfgTree *tree;
  const AfgNode *root;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_if_fail (diff != NULL && out != NULL);

  tree = NODES (diff);
  root = afg_tree_get_node (tree, AFG_TREE_ROOT);
  for (guint32 c = root->n_children; c-- > 0;)
    g_array_append_val (stack, ((Pending) { root->first_child + c, 0 }));
  while (stack->len > 0)
    {
      Pending p = g_array_index (stack, Pending, stack->len - 1);
      const AfgNode *node = afg_tree_get_node (tree, p.node);

      g_array_set_size (stack, stack->len - 1);
      g_string_truncate (path, p.path_len);
      if (p.path_len > 0)
        g_string_append_c (path, ';');
      afg_folded_append_frame (path, afg_tree_get_node_name (tree, p.node));
      append_value_line (out, path, diff, p.node);
      for (guint32 c = node->n_children; c-- > 0;)
        g_array_append_val (stack, ((Pending) { node->first_child + c, path->len }));
    }
}
