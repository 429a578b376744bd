/* SPDX-License-Identifier: MIT */
/* The diff's self-contained page: data/html/diff.html with the
 * flame view of flamegraph.js, coloured by diff-color.js. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "afg-diff-writers.h"
#include "afg-html-page.h"
#include "afg-json-writer.h"

/* "KEY":{"source","stats","scope","step_count"}: the step count is what
 * "per step" divides by (0 for a side without steps). */
static void
append_side (GString *out, const char *key, const AfgTree *source)
{
  AfgDocument *document = afg_tree_get_document (source);

  g_string_append_printf (out, "\"%s\":{", key);
  afg_json_append_source (out, document);
  g_string_append_c (out, ',');
  afg_json_append_stats (out, afg_tree_get_stats (source));
  afg_json_append_scope (out, afg_tree_get_scope (source));
  g_string_append_printf (out, ",\"step_count\":%u}", afg_scope_count_steps (afg_tree_get_scope (source), document));
}

/* Eight varints per frame in the node order (breadth-first, the root
 * left out): name, children, then A's and B's calls, total and self. */
static void
append_nodes (GString *out, AfgDiffShape *diff, const guint32 *compact)
{
  AfgTree *tree = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);

  g_string_append (out, ",\"nodes\":\"");
  for (guint32 i = 1; i < afg_tree_get_n_nodes (tree); i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);

      afg_html_append_varint (out, compact[node->name]);
      afg_html_append_varint (out, node->n_children);
      for (AfgDiffSide side = AFG_DIFF_SIDE_A; side <= AFG_DIFF_SIDE_B; side++)
        {
          AfgDiffValues v;

          afg_diff_shape_get_values (diff, side, i, &v);
          afg_html_append_varint (out, (guint64) MAX (v.calls, 0));
          afg_html_append_varint (out, (guint64) MAX (v.total_ns, 0));
          afg_html_append_varint (out, (guint64) MAX (v.self_ns, 0));
        }
    }
  g_string_append_c (out, '"');
}

/* The threads' own time, which only a transform leaves (a top frame it
 * took out): only then, so that every other page stays as it was. */
static void
append_root_self (GString *out, AfgDiffShape *diff)
{
  AfgDiffValues a, b;

  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_A, AFG_TREE_ROOT, &a);
  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_B, AFG_TREE_ROOT, &b);
  if (a.self_ns > 0 || b.self_ns > 0)
    g_string_append_printf (out, ",\"root_self\":[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]", a.self_ns, b.self_ns);
}

static void
append_data (GString *out, AfgDiffShape *diff)
{
  AfgTree *tree = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);
  gboolean merged = (afg_tree_get_flags (tree) & AFG_TREE_MERGE_ADDRESSES) != 0;
  g_autofree guint32 *compact = NULL;

  g_string_append (out, "{\"format\":\"ascend-flamegraph-diff\",\"version\":1,\"encoding\":\"compact-diff-1\",");
  append_side (out, "a", afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A));
  g_string_append_c (out, ',');
  append_side (out, "b", afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B));
  g_string_append_printf (out, ",\"options\":{\"merge_addresses\":%s}", merged ? "true" : "false");
  compact = afg_html_append_names (out, tree);
  g_string_append_printf (out, ",\"root_children\":%u", afg_tree_get_node (tree, AFG_TREE_ROOT)->n_children);
  append_root_self (out, diff);
  append_nodes (out, diff, compact);
  g_string_append_c (out, '}');
}

static const char *
side_name (AfgDiffShape *diff, AfgDiffSide side)
{
  return afg_document_get_source_name (afg_tree_get_document (afg_diff_shape_get_source (diff, side)));
}

static gboolean
append_piece (GString *out, const char *marker, gsize len, gpointer data, GError **error)
{
  AfgDiffShape *diff = data;

  if (strncmp (marker, "@AFG_STYLE@", len) == 0)
    return afg_html_append_file (out, "flamegraph.css", error) && afg_html_append_file (out, "diff.css", error);
  if (strncmp (marker, "@AFG_SCRIPT@", len) == 0)
    return afg_html_append_file (out, "format.js", error) && afg_html_append_file (out, "strings.js", error)
           && afg_html_append_file (out, "diff-strings.js", error)
           && afg_html_append_file (out, "kinds.js", error) && afg_html_append_file (out, "flamegraph.js", error)
           && afg_html_append_file (out, "diff-color.js", error)
           && afg_html_append_file (out, "merge.js", error) && afg_html_append_file (out, "diff.js", error);
  if (strncmp (marker, "@AFG_DATA@", len) == 0)
    {
      append_data (out, diff);
      return TRUE;
    }
  if (strncmp (marker, "@AFG_TITLE@", len) == 0)
    {
      g_autofree char *title = g_strdup_printf ("%s \xe2\x86\x94 %s", side_name (diff, AFG_DIFF_SIDE_A),
                                                side_name (diff, AFG_DIFF_SIDE_B));
      g_autofree char *escaped = g_markup_escape_text (title, -1);

      g_string_append (out, escaped);
      return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "diff.html: unknown marker %.*s", (int) len, marker);
  return FALSE;
}

gboolean
afg_diff_html_write (AfgDiffShape *diff, GString *out, GError **error)
{
  g_return_val_if_fail (diff != NULL && out != NULL, FALSE);
  return afg_html_expand ("diff.html", append_piece, diff, out, error);
}
