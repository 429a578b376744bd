/* SPDX-License-Identifier: MIT */
/* What the window's core shows of a profile, for the agreement test with
 * the page (agree.test.mjs): per frame `path\tcolour\tshare of all`, then
 * per query `search\tQUERY\tmatches\tshare` over all threads — the values
 * the window's tooltip, palette and match count use — then, with a WIDTH,
 * the matches in the order F3 steps through them, `order\tQUERY\tpath\treveal`,
 * with the zoom that brings each into view in a graph WIDTH px wide. With
 * --tooltip, the rows of the window's tooltip (afg-frame-tooltip.h) of
 * each PATH ("pid/tid;frame;…") zoomed to ZOOM (a path too),
 * `PATH\tLABEL\tVALUE`, of the tree with call durations; --tooltip-merged
 * of the tree with address variants merged, as the window shows it by
 * default.
 * Usage: afg-view-dump [--width=WIDTH] DB [QUERY…]
 *        afg-view-dump DB --tooltip|--tooltip-merged ZOOM PATH… */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afg-flame-layout.h"
#include "afg-flame-search.h"
#include "afg-format.h"
#include "afg-frame-tooltip.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

static char *
colour (const AfgTree *tree, guint32 node)
{
  AfgFlameHsl hsl;

  if (afg_tree_get_node (tree, node)->depth < 2)
    return g_strdup ("#b9b9b2");
  afg_flame_hsl_for_name (afg_tree_get_node_name (tree, node), afg_tree_get_node_category (tree, node), &hsl);
  return g_strdup_printf ("hsl(%u, %u%%, %u%%)", hsl.hue, hsl.saturation, hsl.lightness);
}

/* Index 0, the root, is "". */
static GPtrArray *
print_frames (const AfgTree *tree)
{
  guint n = afg_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n, g_free);
  gint64 all = afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT);

  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 i = 1; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      const char *name = afg_tree_get_node_name (tree, i);
      g_autofree char *c = colour (tree, i);
      g_autofree char *share = afg_format_percent (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, i), all);
      char *path = node->depth == 1 ? g_strdup (name)
                                    : g_strconcat (g_ptr_array_index (paths, node->parent), ";", name, NULL);

      g_ptr_array_add (paths, path);
      printf ("%s\t%s\t%s\n", path, c, share);
    }
  return g_steal_pointer (&paths);
}

/* The window's reveal: afg_flame_view_reveal_node's MATCH_MIN_PX. */
static void
print_order (const AfgTree *tree, GPtrArray *paths, const char *query, const guint8 *matches, double width)
{
  g_autoptr(GArray) list = afg_flame_search_list (tree, matches, AFG_TREE_ROOT);

  for (guint i = 0; i < list->len; i++)
    {
      guint32 node = g_array_index (list, guint32, i);
      guint32 reveal = afg_flame_search_reveal_root (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, node, width, 3.0);

      printf ("order\t%s\t%s\t%s\n", query, (char *) g_ptr_array_index (paths, node),
              (char *) g_ptr_array_index (paths, reveal));
    }
}

static guint32
find_path (const AfgTree *tree, const char *path)
{
  g_auto(GStrv) names = g_strsplit (path, ";", -1);
  guint32 node = AFG_TREE_ROOT;

  for (guint k = 0; names[k] != NULL; k++)
    {
      const AfgNode *n = afg_tree_get_node (tree, node);
      guint32 found = AFG_NODE_NONE;

      for (guint32 c = n->first_child; c < n->first_child + n->n_children && found == AFG_NODE_NONE; c++)
        if (g_str_equal (afg_tree_get_node_name (tree, c), names[k]))
          found = c;
      if (found == AFG_NODE_NONE)
        g_error ("no frame %s", path);
      node = found;
    }
  return node;
}

static void
print_tooltips (const AfgTree *tree, char **argv, int argc)
{
  guint32 zoom = find_path (tree, argv[0]);

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GPtrArray) rows = afg_frame_tooltip_rows (tree, find_path (tree, argv[i]), AFG_COLUMN_TOTAL_NS, 1, zoom);

      for (guint r = 0; r < rows->len; r++)
        {
          const AfgTooltipRow *row = g_ptr_array_index (rows, r);

          printf ("%s\t%s\t%s\n", argv[i], row->label, row->value);
        }
    }
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  double width = 0;

  if (argc > 1 && g_str_has_prefix (argv[1], "--width="))
    {
      width = atof (argv[1] + strlen ("--width="));
      argv++;
      argc--;
    }
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s DB [QUERY…]\n", argv[0]);
      return 2;
    }
  document = afg_document_load (argv[1], NULL, NULL, NULL, &error);
  if (document != NULL)
    tree = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (tree == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (argc > 3 && (g_str_equal (argv[2], "--tooltip") || g_str_equal (argv[2], "--tooltip-merged")))
    {
      AfgTreeFlags flags = AFG_TREE_DURATIONS | (g_str_equal (argv[2], "--tooltip") ? 0 : AFG_TREE_MERGE_ADDRESSES);
      g_autoptr(AfgTree) shown = afg_tree_build (document, NULL, flags, NULL, &error);

      g_assert_no_error (error);
      print_tooltips (shown, argv + 3, argc - 3);
      return 0;
    }
  paths = print_frames (tree);
  for (int q = 2; q < argc; q++)
    {
      g_autofree guint8 *matches = afg_flame_search_match (tree, argv[q]);
      AfgFlameSearchResult result;
      g_autofree char *share = NULL;

      afg_flame_search_summarize (tree, AFG_COLUMN_TOTAL_NS, matches, AFG_TREE_ROOT, &result);
      share = afg_format_percent (result.matched_ns, result.view_ns);
      printf ("search\t%s\t%u\t%s\n", argv[q], result.n_matches, share);
    }
  for (int q = 2; width > 0 && q < argc; q++)
    {
      g_autofree guint8 *matches = afg_flame_search_match (tree, argv[q]);

      print_order (tree, paths, argv[q], matches, width);
    }
  return 0;
}
