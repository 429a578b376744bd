/* SPDX-License-Identifier: MIT */
/* Redraw benchmark of the flame view: renders a whole 1920×1080 view
 * through the widget's drawing code into a cairo image surface.
 * Usage: bench-flame-view [DB]  (without DB: a synthetic ~1M-row tree) */
#include <stdio.h>
#include <stdlib.h>

#include <pango/pangocairo.h>

#include "afg-flame-renderer.h"
#include "afg-loader.h"
#include "afg-test-db.h"

#define WIDTH 1920
#define HEIGHT 1080
#define RUNS 41
#define TARGET_ROWS 1000000
#define N_THREADS 8
#define NODES_PER_THREAD 7300
#define MAX_DEPTH 24
#define POOL 4096

/* Each thread calls into a fixed random tree of ~7.3k frames (so ~58k
 * frames in all); every top-level call walks all of it. */
typedef struct {
  guint  name;
  guint  depth;
  GArray *children; /* guint indices into the template */
} TemplateNode;

typedef struct {
  AfgTestDb *db;
  GRand     *rand;
  char      *names[POOL];
  GArray    *template;
  guint64    rows;
} Generator;

static void
make_names (Generator *g)
{
  for (guint i = 0; i < POOL; i++)
    switch (i % 4)
      {
      case 0: g->names[i] = g_strdup_printf ("model/layer%u.py(%u): forward", i, i % 300); break;
      case 1: g->names[i] = g_strdup_printf ("aten::op_%u", i); break;
      case 2: g->names[i] = g_strdup_printf ("aclnnKernel%u", i); break;
      default: g->names[i] = g_strdup_printf ("Dequeue@%u", i); break;
      }
}

static guint
template_add (Generator *g, guint depth)
{
  TemplateNode node = { g_rand_int_range (g->rand, 0, POOL), depth,
                        g_array_new (FALSE, FALSE, sizeof (guint)) };

  g_array_append_val (g->template, node);
  return g->template->len - 1;
}

static void
make_template (Generator *g)
{
  guint next = 0;

  g->template = g_array_new (FALSE, FALSE, sizeof (TemplateNode));
  template_add (g, 0);
  while (g->template->len < NODES_PER_THREAD && next < g->template->len)
    {
      guint depth = g_array_index (g->template, TemplateNode, next).depth;
      guint n = depth >= MAX_DEPTH ? 0 : g_rand_int_range (g->rand, 1, 4);

      for (guint c = 0; c < n && g->template->len < NODES_PER_THREAD; c++)
        {
          guint child = template_add (g, depth + 1);

          g_array_append_val (g_array_index (g->template, TemplateNode, next).children, child);
        }
      next++;
    }
}

static void
emit (Generator *g, gint64 gtid, gint64 start, gint64 dur, guint index)
{
  TemplateNode *node = &g_array_index (g->template, TemplateNode, index);
  gint64 t = start + 1;
  gint64 child_dur = node->children->len ? dur * 9 / 10 / node->children->len : 0;

  afg_test_db_add (g->db, gtid, start, start + dur, g->names[node->name]);
  g->rows++;
  for (guint c = 0; c < node->children->len && child_dur > 2; c++)
    {
      emit (g, gtid, t, child_dur, g_array_index (node->children, guint, c));
      t += child_dur;
    }
}

static char *
generate_db (AfgTestDb **out_db)
{
  Generator g = { afg_test_db_new (AFG_TEST_DB_DEFAULT), g_rand_new_with_seed (42) };
  gint64 clock[N_THREADS] = { 0 };
  const gint64 call = G_GINT64_CONSTANT (1) << 44;

  make_names (&g);
  make_template (&g);
  afg_test_db_begin (g.db);
  for (guint i = 0; g.rows < TARGET_ROWS; i++)
    {
      guint thread = i % N_THREADS;

      /* The thread number salts the names, so threads differ. */
      g_array_index (g.template, TemplateNode, 0).name = thread;
      emit (&g, GTID (1000, 1000 + thread), clock[thread], call, 0);
      clock[thread] += call + 10;
    }
  afg_test_db_commit (g.db);
  afg_test_db_close (g.db);
  for (guint i = 0; i < POOL; i++)
    g_free (g.names[i]);
  for (guint i = 0; i < g.template->len; i++)
    g_array_unref (g_array_index (g.template, TemplateNode, i).children);
  g_array_unref (g.template);
  g_rand_free (g.rand);
  *out_db = g.db;
  return g_strdup (g.db->path);
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
render_once (AfgFlameRenderer *renderer, cairo_t *cr, AfgFlameLayout *layout,
             AfgFlameDrawState *state)
{
  gint64 start = g_get_monotonic_time ();

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  afg_flame_renderer_draw_frames (renderer, cr, layout, state);
  afg_flame_renderer_draw_highlights (renderer, cr, layout, state);
  cairo_surface_flush (cairo_get_target (cr));
  return (g_get_monotonic_time () - start) / 1000.0;
}

int
main (int argc, char *argv[])
{
  AfgTestDb *db = NULL;
  g_autofree char *path = argc > 1 ? g_strdup (argv[1]) : generate_db (&db);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = afg_test_load_tree (path, NULL, NULL, NULL, &error);
  g_autoptr(GObject) context = NULL;
  g_autoptr(AfgFlameRenderer) renderer = NULL;
  AfgFlameDrawState state = { WIDTH, HEIGHT, 0, TRUE, NULL, AFG_FLAME_NO_FRAME, AFG_FLAME_NO_FRAME };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  AfgFlameLayout *layout;
  double times[RUNS];
  double colors_ms;
  gint64 start;
  guint n_frames;

  if (tree == NULL)
    {
      g_printerr ("bench-flame-view: %s\n", error->message);
      return EXIT_FAILURE;
    }
  context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  renderer = afg_flame_renderer_new (PANGO_CONTEXT (context));
  start = g_get_monotonic_time ();
  afg_flame_renderer_set_tree (renderer, tree);
  colors_ms = (g_get_monotonic_time () - start) / 1000.0;
  start = g_get_monotonic_time ();
  layout = afg_flame_layout_new (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  afg_flame_layout_get_frames (layout, &n_frames);
  printf ("rows %" G_GUINT64_FORMAT ", frames %u, rows of frames %u, renderer set-up %.2f ms, "
          "layout %.2f ms\n", afg_tree_get_stats (tree)->used, n_frames,
          afg_flame_layout_get_n_rows (layout), colors_ms, (g_get_monotonic_time () - start) / 1000.0);
  for (guint i = 0; i < RUNS; i++)
    times[i] = render_once (renderer, cr, layout, &state);
  qsort (times, RUNS, sizeof times[0], compare_double);
  printf ("redraw %dx%d: median %.2f ms, min %.2f ms, max %.2f ms (%d runs)\n",
          WIDTH, HEIGHT, times[RUNS / 2], times[0], times[RUNS - 1], RUNS);
  if (g_getenv ("AFG_BENCH_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("AFG_BENCH_PNG"));
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  afg_flame_layout_free (layout);
  g_clear_pointer (&db, afg_test_db_free);
  return EXIT_SUCCESS;
}
