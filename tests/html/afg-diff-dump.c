/* SPDX-License-Identifier: MIT */
/* What the window's diff colours are, for the agreement test with the
 * page's diff-color.js (diff.test.mjs):
 *   afg-diff-dump table
 *     afg_diff_hsl(), afg_diff_compared() and afg_diff_norm_scales() on a table of inputs (edge
 *     cases, then pseudo-random ones), a line each;
 *   afg-diff-dump view A.db B.db [self|total] [raw|per-step|equal-totals] [plain]
 *     `path\thsl(h, s%, l%)` per frame of the two DBs' diff (addresses
 *     merged, unless "plain"), coloured as AfgDiffView colours it with
 *     those settings and the default noise floor. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afg-diff-color.h"
#include "afg-diff-shape.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

static void
print_hsl_line (double a, double b, gboolean in_a, gboolean in_b, double min_ns, double min_percent)
{
  AfgDiffNoise noise = { min_ns, min_percent };
  AfgFlameHsl hsl;

  afg_diff_hsl (a, b, in_a, in_b, &noise, &hsl);
  printf ("hsl\t%.17g\t%.17g\t%d\t%d\t%.17g\t%.17g\t%u\t%u\t%u\n", a, b, in_a, in_b, min_ns, min_percent,
          hsl.hue, hsl.saturation, hsl.lightness);
}

static void
print_compared_line (double a, double b, double a_total, double b_total, double min_ns, double min_percent)
{
  AfgDiffNoise noise = { min_ns, min_percent };
  double ca = a, cb = b;

  afg_diff_compared (&ca, &cb, a_total, b_total, &noise);
  printf ("compared\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", a, b, a_total, b_total,
          min_ns, min_percent, ca, cb);
}

static void
print_norm_line (AfgDiffNorm norm, gint64 a_total, gint64 b_total, guint a_steps, guint b_steps)
{
  static const char * const names[] = { "raw", "per-step", "equal-totals" };
  double sa, sb;

  afg_diff_norm_scales (norm, a_total, b_total, a_steps, b_steps, &sa, &sb);
  printf ("norm\t%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%u\t%u\t%.17g\t%.17g\n", names[norm], a_total,
          b_total, a_steps, b_steps, sa, sb);
}

/* Times around the floors and the cap, and random ones of every size. */
static void
print_table (void)
{
  static const double edges[][2] = {
    { 0, 0 }, { 5e6, 5e6 }, { 1000, 100999 }, { 1000, 101000 }, { 1e9, 1.049e9 }, { 1e9, 1.05e9 },
    { 0, 3000 }, { 3000, 0 }, { 1e6, 1.5e6 }, { 1e6, 0.5e6 }, { 1e6, 2e6 }, { 1e6, 9e6 }, { 1e7, 1.06e7 },
    { 0, 1e6 }, { 1e6, 0 }, { 3, 7 }, { 1e6, 1.0083333e6 }, { 1.5e5, 2.5e5 }, { 0.1, 2e5 },
  };
  static const double floors[][2] = { { 100000, 5 }, { 0, 0 }, { 1000, 50 }, { 2.5e6, 0.5 } };
  g_autoptr(GRand) rand = g_rand_new_with_seed (16);

  for (guint f = 0; f < G_N_ELEMENTS (floors); f++)
    for (guint e = 0; e < G_N_ELEMENTS (edges); e++)
      for (guint presence = 0; presence < 4; presence++)
        print_hsl_line (edges[e][0], edges[e][1], presence & 1, presence >> 1, floors[f][0], floors[f][1]);
  /* Self time as each edge, the total as every edge (a total under its
   * self does not occur, but the rule does not care). */
  for (guint f = 0; f < G_N_ELEMENTS (floors); f++)
    for (guint e = 0; e < G_N_ELEMENTS (edges); e++)
      for (guint t = 0; t < G_N_ELEMENTS (edges); t++)
        print_compared_line (edges[e][0], edges[e][1], edges[t][0], edges[t][1], floors[f][0], floors[f][1]);
  for (guint i = 0; i < 4000; i++)
    {
      double a = g_rand_int_range (rand, 0, 4) == 0 ? 0 : pow (10, g_rand_double_range (rand, 0, 10));
      double b = g_rand_int_range (rand, 0, 4) == 0 ? a * g_rand_double_range (rand, 0.9, 1.1)
                                                    : pow (10, g_rand_double_range (rand, 0, 10));

      print_hsl_line (a, b, g_rand_boolean (rand), g_rand_boolean (rand),
                      g_rand_double_range (rand, 0, 1e6), g_rand_double_range (rand, 0, 20));
    }
  for (AfgDiffNorm norm = AFG_DIFF_NORM_RAW; norm <= AFG_DIFF_NORM_EQUAL_TOTALS; norm++)
    {
      print_norm_line (norm, 0, 0, 0, 0);
      print_norm_line (norm, 160, 194, 1, 3);
      print_norm_line (norm, 139051080, 152381100, 7, 0);
      print_norm_line (norm, G_GINT64_CONSTANT (9007199254740993), 3, 1000, 999);
    }
}

static AfgTree *
load (const char *path, AfgTreeFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  AfgTree *tree = document ? afg_tree_build (document, NULL, flags, NULL, &error) : NULL;

  if (tree == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      exit (1);
    }
  return tree;
}

static AfgDiffNorm
norm_from_string (const char *text)
{
  if (g_strcmp0 (text, "per-step") == 0)
    return AFG_DIFF_NORM_PER_STEP;
  if (g_strcmp0 (text, "equal-totals") == 0)
    return AFG_DIFF_NORM_EQUAL_TOTALS;
  return AFG_DIFF_NORM_RAW;
}

static void
print_view (const char *a_path, const char *b_path, AfgColumn column, AfgDiffNorm norm, AfgTreeFlags flags)
{
  g_autoptr(AfgTree) a = load (a_path, flags);
  g_autoptr(AfgTree) b = load (b_path, flags);
  g_autoptr(AfgDiffShape) diff = afg_diff_shape_new (a, b, "diff", NULL);
  AfgTree *tree = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);
  guint n = afg_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n, g_free);
  AfgDiffNoise noise = { AFG_DIFF_DEFAULT_MIN_NS, AFG_DIFF_DEFAULT_MIN_PERCENT };
  double scales[2];

  afg_diff_norm_scales (norm, afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT),
                        afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT),
                        afg_diff_shape_get_step_count (diff, AFG_DIFF_SIDE_A),
                        afg_diff_shape_get_step_count (diff, AFG_DIFF_SIDE_B), &scales[0], &scales[1]);
  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 i = 1; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      const char *name = afg_tree_get_node_name (tree, i);
      char *path = node->depth == 1 ? g_strdup (name)
                                    : g_strconcat (g_ptr_array_index (paths, node->parent), ";", name, NULL);
      double a = afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_A, column, i) * scales[0];
      double b = afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_B, column, i) * scales[1];
      AfgFlameHsl hsl;

      afg_diff_compared (&a, &b, afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, i) * scales[0],
                         afg_diff_shape_get_value (diff, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, i) * scales[1], &noise);
      afg_diff_hsl (a, b, afg_diff_shape_has_node (diff, AFG_DIFF_SIDE_A, i), afg_diff_shape_has_node (diff, AFG_DIFF_SIDE_B, i),
                    &noise, &hsl);
      g_ptr_array_add (paths, path);
      printf ("%s\thsl(%u, %u%%, %u%%)\n", path, hsl.hue, hsl.saturation, hsl.lightness);
    }
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "table") == 0)
    print_table ();
  else if (argc >= 4 && strcmp (argv[1], "view") == 0)
    print_view (argv[2], argv[3], g_strcmp0 (argv[4], "total") == 0 ? AFG_COLUMN_TOTAL_NS : AFG_COLUMN_SELF_NS,
                norm_from_string (argc > 5 ? argv[5] : NULL),
                argc > 6 && strcmp (argv[6], "plain") == 0 ? AFG_TREE_FLAGS_NONE : AFG_TREE_MERGE_ADDRESSES);
  else
    {
      fprintf (stderr, "usage: %s table | view A.db B.db [self|total] [raw|per-step|equal-totals] [plain]\n", argv[0]);
      return 2;
    }
  return 0;
}
