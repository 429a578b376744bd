/* SPDX-License-Identifier: MIT */
/* The diff's JSON and folded stacks. */
#include "config.h"

#include "afg-diff-writers.h"
#include "afg-json-writer.h"

/* Both sides' trees have the same nodes and names: B's stands for both. */
#define NODES(diff) afg_diff_shape_get_tree ((diff), AFG_DIFF_SIDE_B)

static void
append_values (GString *out, const char *key, AfgDiffShape *diff, AfgDiffSide side, guint32 node)
{
  AfgDiffValues v;

  afg_diff_shape_get_values (diff, side, node, &v);
  g_string_append_printf (out, ",\"%s\":{\"calls\":", key);
  afg_json_append_int (out, v.calls);
  afg_json_append_member_int (out, "total_ns", v.total_ns);
  afg_json_append_member_int (out, "self_ns", v.self_ns);
  g_string_append_c (out, '}');
}

/* A transformed side adds its root: the threads' own time is there
 * (top frames a transform took out), and in no node. */
static void
append_side (GString *out, const char *key, AfgDiffShape *diff, AfgDiffSide side)
{
  const AfgTree *source = afg_diff_shape_get_source (diff, side);

  g_string_append_printf (out, "\"%s\":{", key);
  afg_json_append_source (out, afg_tree_get_document (source));
  g_string_append_c (out, ',');
  afg_json_append_stats (out, afg_tree_get_stats (source));
  afg_json_append_scope (out, afg_tree_get_scope (source));
  afg_json_append_transforms (out, source);
  if (afg_tree_get_transforms (source) != NULL)
    append_values (out, "root", diff, side, AFG_TREE_ROOT);
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
  append_side (out, "a", diff, AFG_DIFF_SIDE_A);
  g_string_append_c (out, ',');
  append_side (out, "b", diff, AFG_DIFF_SIDE_B);
  g_string_append_printf (out, ",\"options\":{\"merge_addresses\":%s},", merged ? "true" : "false");
  afg_json_append_children (out, NODES (diff), AFG_TREE_ROOT, append_node_open, diff);
  g_string_append (out, "}\n");
}

typedef struct {
  AfgDiffShape *diff;
  GString      *path;
  GString      *out;
} Folding;

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

/* @path_len: the length of the parent's path, then of this node's. */
static gboolean
fold_node (const AfgTree *tree, guint32 node, guint32 *path_len, gpointer data)
{
  Folding *f = data;

  g_string_truncate (f->path, *path_len);
  if (*path_len > 0)
    g_string_append_c (f->path, ';');
  afg_folded_append_frame (f->path, afg_tree_get_node_name (tree, node));
  append_value_line (f->out, f->path, f->diff, node);
  *path_len = f->path->len;
  return TRUE;
}

void
afg_diff_folded_write (AfgDiffShape *diff, GString *out)
{
  g_autoptr(GString) path = g_string_new (NULL);
  Folding f = { diff, path, out };

  g_return_if_fail (diff != NULL && out != NULL);

  /* The threads' own time, on a line of its own as in a single
   * profile's stacks; not translated, as no stack is. */
  g_string_append (path, "All threads");
  append_value_line (out, path, diff, AFG_TREE_ROOT);
  g_string_truncate (path, 0);
  afg_tree_walk (NODES (diff), AFG_TREE_ROOT, 0, fold_node, &f);
}
