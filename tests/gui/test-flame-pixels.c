/* SPDX-License-Identifier: MIT */
#include <gtk/gtk.h>
#include <pango/pangocairo.h>

#include "afg-flame-renderer.h"
#include "afg-flame-view.h"
#include "afg-format.h"
#include "afg-loader.h"
#include "afg-stack-chart.h"
#include "afg-gui-test-tree.h"
#include "afg-task-kinds.h"
#include "afg-writers.h"

#define WIDTH 600
#define HEIGHT 200

typedef struct {
  guchar *data;
  int     stride;
} Image;


/* Reads an ARGB32 pixel as 0-255 RGB, undoing premultiplication. */
static void
pixel_at (const Image *img, int x, int y, int rgb[3])
{
  guint32 p = *(guint32 *) (img->data + y * img->stride + x * 4);
  int a = p >> 24;

  for (int i = 0; i < 3; i++)
    rgb[i] = a == 0 ? 0 : ((p >> (16 - 8 * i)) & 0xff) * 255 / a;
}

static int
alpha_at (const Image *img, int x, int y)
{
  return *(guint32 *) (img->data + y * img->stride + x * 4) >> 24;
}

static void
assert_rgb (const Image *img, int x, int y, const AfgFlameColor *c)
{
  int rgb[3];

  pixel_at (img, x, y, rgb);
  g_test_message ("(%d,%d) = %d %d %d, want %.0f %.0f %.0f", x, y, rgb[0], rgb[1], rgb[2],
                  c->red * 255, c->green * 255, c->blue * 255);
  g_assert_cmpint (ABS (rgb[0] - (int) (c->red * 255 + 0.5)), <=, 3);
  g_assert_cmpint (ABS (rgb[1] - (int) (c->green * 255 + 0.5)), <=, 3);
  g_assert_cmpint (ABS (rgb[2] - (int) (c->blue * 255 + 0.5)), <=, 3);
}

static void
color_of (AfgGuiTreeFixture *f, guint32 n, AfgFlameColor *c)
{
  afg_flame_color_for_node (f->tree, n, c);
}

/* A point inside the frame that no label reaches: labels stop 4 px
 * before the right edge. */
static void
frame_point (double x_fraction_end, guint row, int *x, int *y)
{
  *x = (int) (x_fraction_end * WIDTH) - 3;
  *y = row * AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT / 2;
}

static void
assert_frame_color (AfgGuiTreeFixture *f, const Image *img, const char *path, double x_end, guint row)
{
  AfgFlameColor c;
  int x, y;

  color_of (f, afg_gui_tree_node (f, path), &c);
  frame_point (x_end, row, &x, &y);
  assert_rgb (img, x, y, &c);
}

/* Layouts are built in a worker: wait until the requested one is in. */
static void
wait_for_layout (GtkWidget *view)
{
  while (afg_flame_view_is_busy (AFG_FLAME_VIEW (view)))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static void
wait_for_allocation (GtkWidget *widget)
{
  while (gtk_widget_get_width (widget) != WIDTH || gtk_widget_get_height (widget) != HEIGHT
         || !gtk_widget_get_mapped (widget))
    g_main_context_iteration (NULL, TRUE);
  /* Let the frame clock paint once so the widget has been drawn. */
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* Renders the real widget's snapshot through GSK's cairo renderer into a
 * texture. */
static guchar *
render_widget (GtkWidget *widget, Image *img)
{
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) rnode = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  rnode = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (rnode);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  texture = gsk_renderer_render_texture (renderer, rnode, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
  img->stride = WIDTH * 4;
  img->data = g_malloc0 (img->stride * HEIGHT);
  gdk_texture_download (texture, img->data, img->stride);

  gsk_renderer_unrealize (renderer);
  return img->data;
}

static GtkWidget *
show_view (AfgGuiTreeFixture *f, GtkWidget **window)
{
  GtkWidget *view = afg_flame_view_new ();

  *window = gtk_window_new ();
  gtk_widget_set_size_request (view, WIDTH, HEIGHT);
  gtk_window_set_default_size (GTK_WINDOW (*window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (*window), view);
  gtk_window_present (GTK_WINDOW (*window));
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), f->tree);
  wait_for_layout (view);
  wait_for_allocation (view);
  return view;
}

static void
test_widget_colors (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  Image img;
  g_autofree guchar *pixels = render_widget (view, &img);

  assert_frame_color (f, &img, "1/2", 1000.0 / 1500, 1);
  assert_frame_color (f, &img, "1/3;acl_op", 1.0, 2);
  assert_frame_color (f, &img, "1/2;main.py(1): run;aten::add", 0.2, 3);
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward", 700.0 / 1500, 3);
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm", 500.0 / 1500, 4);
  /* Nothing below the deepest row, nothing right of aten::add's children. */
  g_assert_cmpint (alpha_at (&img, 10, 5 * AFG_FLAME_ROW_HEIGHT + 10), ==, 0);
  g_assert_cmpint (alpha_at (&img, WIDTH / 2, 4 * AFG_FLAME_ROW_HEIGHT + 10), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_search (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  AfgFlameSearchResult result;
  Image img;
  g_autofree guchar *pixels = NULL;
  int x, y;

  afg_flame_view_set_search (AFG_FLAME_VIEW (view), "aten::m");
  pixels = render_widget (view, &img);
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm", 500.0 / 1500, 4);
  assert_frame_color (f, &img, "1/2;main.py(1): run;aten::add;aten::mul", 100.0 / 1500, 4);
  /* Everything else is dimmed: drawn at a fraction of its opacity. */
  frame_point (0.2, 3, &x, &y);
  g_assert_cmpint (alpha_at (&img, x, y), <, 80);
  g_assert_cmpint (alpha_at (&img, x, y), >, 20);
  g_assert_true (afg_flame_view_get_search_result (AFG_FLAME_VIEW (view), &result));
  g_assert_cmpuint (result.n_matches, ==, 2);
  g_assert_cmpint (result.matched_ns, ==, 300);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A picked function lights its frames and dims the rest, as a search
 * does; with a search too, only frames both keep stay lit. */
static void
test_widget_highlight (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (f->tree));
  Image img;
  g_autofree guchar *pixels = NULL;
  g_autofree guchar *cleared = NULL;
  int x, y;

  marks[afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add")] = 1;
  afg_flame_view_set_highlight (AFG_FLAME_VIEW (view), marks);
  pixels = render_widget (view, &img);
  frame_point (0.2, 3, &x, &y);
  g_assert_cmpint (alpha_at (&img, x, y), ==, 255);
  assert_frame_color (f, &img, "1/2;main.py(1): run;aten::add", 200.0 / 1500, 3);
  frame_point (700.0 / 1500, 3, &x, &y);
  g_assert_cmpint (alpha_at (&img, x, y), <, 80);
  afg_flame_view_set_search (AFG_FLAME_VIEW (view), "aten::m");
  g_free (pixels);
  pixels = render_widget (view, &img);
  frame_point (0.2, 3, &x, &y);
  g_assert_cmpint (alpha_at (&img, x, y), <, 80);
  afg_flame_view_set_search (AFG_FLAME_VIEW (view), NULL);
  afg_flame_view_set_highlight (AFG_FLAME_VIEW (view), NULL);
  cleared = render_widget (view, &img);
  frame_point (700.0 / 1500, 3, &x, &y);
  g_assert_cmpint (alpha_at (&img, x, y), ==, 255);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_zoom (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  Image img;
  g_autofree guchar *pixels = NULL;

  afg_flame_view_zoom_to (AFG_FLAME_VIEW (view), afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward"));
  g_assert_true (afg_flame_view_is_zoomed (AFG_FLAME_VIEW (view)));
  wait_for_layout (view);
  pixels = render_widget (view, &img);
  /* Ancestors and the zoomed frame span the width, its child half of it. */
  assert_frame_color (f, &img, "1/2", 1.0, 1);
  assert_frame_color (f, &img, "1/2;main.py(1): run", 1.0, 2);
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward", 1.0, 3);
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm", 0.5, 4);
  g_assert_cmpint (alpha_at (&img, WIDTH * 3 / 4, 4 * AFG_FLAME_ROW_HEIGHT + 10), ==, 0);
  afg_flame_view_zoom_out (AFG_FLAME_VIEW (view));
  afg_flame_view_reset_zoom (AFG_FLAME_VIEW (view));
  g_assert_false (afg_flame_view_is_zoomed (AFG_FLAME_VIEW (view)));
  wait_for_layout (view);
  g_assert_cmpuint (afg_flame_layout_get_zoom_root (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))),
                    ==, AFG_TREE_ROOT);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_flame_orientation (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  AfgFlameColor c;
  Image img;
  g_autofree guchar *pixels = NULL;

  afg_flame_view_set_icicle (AFG_FLAME_VIEW (view), FALSE);
  pixels = render_widget (view, &img);
  color_of (f, afg_gui_tree_node (f, "1/3"), &c);
  assert_rgb (&img, WIDTH - 3, HEIGHT - 2 * AFG_FLAME_ROW_HEIGHT + 10, &c);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The hover highlight, drawn by the same renderer the widget uses. */
static void
test_renderer_hover (AfgGuiTreeFixture *f, gconstpointer data)
{
  g_autoptr(GObject) context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(AfgFlameRenderer) renderer = afg_flame_renderer_new (PANGO_CONTEXT (context));
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  AfgFlameDrawState state = { WIDTH, HEIGHT, 0, TRUE, NULL, 5, AFG_FLAME_NO_FRAME };
  Image img;
  AfgFlameColor c, lighter;
  int x, y;

  afg_flame_renderer_set_tree (renderer, f->tree);
  afg_flame_renderer_draw_frames (renderer, cr, layout, &state);
  afg_flame_renderer_draw_highlights (renderer, cr, layout, &state);
  cairo_surface_flush (surface);
  img.data = cairo_image_surface_get_data (surface);
  img.stride = cairo_image_surface_get_stride (surface);
  color_of (f, afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add"), &c);
  lighter = (AfgFlameColor) { c.red + (1 - c.red) * 0.35, c.green + (1 - c.green) * 0.35,
                              c.blue + (1 - c.blue) * 0.35 };
  frame_point (0.2, 3, &x, &y);
  assert_rgb (&img, x - 3, y, &lighter);
  /* A neighbour keeps its colour. */
  assert_frame_color (f, &img, "1/2;main.py(1): run;torch/nn.py(5): forward", 700.0 / 1500, 3);
  g_assert_cmpuint (afg_flame_frame_at (layout, &state, x, y), ==, 5);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  afg_flame_layout_free (layout);
}

/* The widest leaf of @kind in @layout. */
static const AfgFlameLeaf *
widest_leaf (AfgTree *tree, const AfgFlameLayout *layout, guint32 kind)
{
  guint n;
  const AfgFlameLeaf *leaves = afg_flame_layout_get_leaves (layout, &n);
  const AfgFlameLeaf *widest = NULL;

  for (guint i = 0; i < n; i++)
    {
      guint n_kernels;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, leaves[i].node, &n_kernels);

      if (k[leaves[i].kernel].kind == kind && (widest == NULL || leaves[i].width > widest->width))
        widest = &leaves[i];
    }
  g_assert_nonnull (widest);
  return widest;
}

/* Kernel leaves in the page's colours (data/html/kinds.js): yellow for
 * compute, violet for communication, a darker band on top. */
static void
assert_leaf_colors (AfgTree *tree, AfgWeight weight, guint32 kind, const AfgFlameColor *fill,
                    const AfgFlameColor *band)
{
  g_autoptr(GObject) context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(AfgFlameRenderer) renderer = afg_flame_renderer_new (PANGO_CONTEXT (context));
  AfgFlameLayout *layout = afg_flame_layout_new (tree, afg_weight_get_total_column (weight), AFG_TREE_ROOT, AFG_TREE_ROOT);
  int height = afg_flame_content_height (layout);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, height);
  cairo_t *cr = cairo_create (surface);
  AfgFlameDrawState state = { WIDTH, height, 0, TRUE, NULL, AFG_FLAME_NO_FRAME, AFG_FLAME_NO_FRAME,
                              NULL, AFG_FLAME_NO_FRAME };
  const AfgFlameLeaf *leaf = widest_leaf (tree, layout, kind);
  int right = (int) ((leaf->x + leaf->width) * WIDTH) - 3;
  int top = leaf->row * AFG_FLAME_ROW_HEIGHT;
  Image img;

  g_assert_cmpfloat (leaf->width * WIDTH, >=, 8);
  afg_flame_renderer_set_tree (renderer, tree);
  afg_flame_renderer_draw_frames (renderer, cr, layout, &state);
  cairo_surface_flush (surface);
  img.data = cairo_image_surface_get_data (surface);
  img.stride = cairo_image_surface_get_stride (surface);
  assert_rgb (&img, right, top + 1, band);
  assert_rgb (&img, right, top + AFG_FLAME_ROW_HEIGHT - 3, fill);
  g_assert_cmpuint (afg_flame_leaf_at (layout, &state, right, top + 10), ==,
                    leaf - afg_flame_layout_get_leaves (layout, &(guint) { 0 }));
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  afg_flame_layout_free (layout);
}

static void
test_renderer_leaves (void)
{
  g_autoptr(AfgTree) tree = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  const AfgFlameColor yellow = { 0.981, 0.909, 0.259 }, yellow_band = { 0.570, 0.516, 0.030 };
  const AfgFlameColor violet = { 0.746, 0.566, 0.874 }, violet_band = { 0.376, 0.193, 0.507 };

  assert_leaf_colors (tree, AFG_WEIGHT_COMPUTE, AFG_TASK_KIND_COMPUTE, &yellow, &yellow_band);
  assert_leaf_colors (tree, AFG_WEIGHT_COMM, AFG_TASK_KIND_COMMUNICATION, &violet, &violet_band);
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* Two zooms in a row: the first one's layout, still building, is dropped,
 * so it never lands after the second. */
static void
test_widget_stale_layout (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  guint32 add = afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add");
  guint32 forward = afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward");
  guint landed = 0;

  g_signal_connect (view, "notify::zoom-root", G_CALLBACK (count_notify), &landed);
  afg_flame_view_zoom_to (AFG_FLAME_VIEW (view), add);
  afg_flame_view_zoom_to (AFG_FLAME_VIEW (view), forward);
  wait_for_layout (view);
  g_usleep (50 * 1000);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (afg_flame_layout_get_zoom_root (afg_flame_view_get_layout (AFG_FLAME_VIEW (view))),
                    ==, forward);
  g_assert_cmpuint (landed, ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_selected_node (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  guint32 mm = afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward;aten::mm");
  guint notified = 0;
  guint32 got;

  g_signal_connect (view, "notify::selected-node", G_CALLBACK (count_notify), &notified);
  g_object_set (view, "selected-node", mm, NULL);
  g_object_set (view, "selected-node", mm, NULL);
  g_object_get (view, "selected-node", &got, NULL);
  g_assert_cmpuint (got, ==, mm);
  g_assert_cmpuint (notified, ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A selected frame far under a pixel wide still shows an outline several
 * pixels wide around where it is. */
static void
test_renderer_narrow_selection (AfgGuiTreeFixture *f, gconstpointer data)
{
  g_autoptr(GObject) context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(AfgFlameRenderer) renderer = afg_flame_renderer_new (PANGO_CONTEXT (context));
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  int width = 10;  /* aten::mul, 100 of 1500 ns: 0.67 px */
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  AfgFlameDrawState state = { width, HEIGHT, 0, TRUE, NULL, AFG_FLAME_NO_FRAME, 7 };
  Image img;
  int blue_columns = 0;

  afg_flame_renderer_set_tree (renderer, f->tree);
  afg_flame_renderer_draw_highlights (renderer, cr, layout, &state);
  cairo_surface_flush (surface);
  img.data = cairo_image_surface_get_data (surface);
  img.stride = cairo_image_surface_get_stride (surface);
  for (int x = 0; x < width; x++)
    {
      int rgb[3];

      pixel_at (&img, x, 4 * AFG_FLAME_ROW_HEIGHT + 1, rgb);
      blue_columns += alpha_at (&img, x, 4 * AFG_FLAME_ROW_HEIGHT + 1) > 200 && rgb[2] > 180 && rgb[0] < 120;
    }
  g_assert_cmpint (blue_columns, >=, 4);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  afg_flame_layout_free (layout);
}

/* Magenta: the search's mark. */
static gboolean
is_match_mark (const Image *img, int x, int y)
{
  int rgb[3];

  pixel_at (img, x, y, rgb);
  return alpha_at (img, x, y) > 200 && rgb[0] > 180 && rgb[1] < 60 && rgb[2] > 100 && rgb[2] < 180;
}

/* Matches get a bar of their own along their bottom edge, at least 4 px
 * wide: aten::mul, 0.67 px at this width, too; no other frame has one. */
static void
test_renderer_match_marks (AfgGuiTreeFixture *f, gconstpointer data)
{
  g_autoptr(GObject) context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(AfgFlameRenderer) renderer = afg_flame_renderer_new (PANGO_CONTEXT (context));
  AfgFlameLayout *layout = afg_flame_layout_new (f->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  int width = 10;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  g_autofree guint8 *matches = g_new0 (guint8, afg_tree_get_n_nodes (f->tree));
  AfgFlameDrawState state = { width, HEIGHT, 0, TRUE, matches, AFG_FLAME_NO_FRAME, AFG_FLAME_NO_FRAME };
  int bar_y = 4 * AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT - 3;
  int marked = 0, elsewhere = 0;
  Image img;

  matches[afg_gui_tree_node (f, "1/2;main.py(1): run;aten::add;aten::mul")] = 1;
  afg_flame_renderer_set_tree (renderer, f->tree);
  afg_flame_renderer_draw_frames (renderer, cr, layout, &state);
  cairo_surface_flush (surface);
  img.data = cairo_image_surface_get_data (surface);
  img.stride = cairo_image_surface_get_stride (surface);
  for (int x = 0; x < width; x++)
    {
      marked += is_match_mark (&img, x, bar_y);
      for (guint row = 0; row < 4; row++)
        elsewhere += is_match_mark (&img, x, row * AFG_FLAME_ROW_HEIGHT + AFG_FLAME_ROW_HEIGHT - 3);
    }
  g_assert_cmpint (marked, >=, 4);
  g_assert_cmpint (elsewhere, ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  afg_flame_layout_free (layout);
}

/* A 400-character name wraps at about 60 characters, as the page does. */
static void
test_tooltip_wraps (void)
{
  g_autofree char *name = g_strnfill (400, 'x');
  AfgTestEvent events[] = { { GTID (1, 2), 0, 1000, name } };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;
  GtkWidget *view = g_object_ref_sink (afg_flame_view_new ());
  g_autoptr(GtkWidget) tooltip = NULL;
  g_autofree char *path = g_strconcat ("1/2;", name, NULL);
  PangoLayout *sample;
  int natural, char_width, height_one, height;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  tree = afg_test_db_load (db);
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), tree);
  wait_for_layout (view);
  tooltip = g_object_ref_sink (afg_flame_view_create_tooltip (AFG_FLAME_VIEW (view),
                                                              afg_test_find_node (tree, path)));
  sample = gtk_widget_create_pango_layout (tooltip, "x");
  pango_layout_get_pixel_size (sample, &char_width, &height_one);
  g_object_unref (sample);
  gtk_widget_measure (tooltip, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  gtk_widget_measure (tooltip, GTK_ORIENTATION_VERTICAL, natural, NULL, &height, NULL, NULL);
  g_test_message ("tooltip %d px wide, %d px high; a character is %d px", natural, height, char_width);
  g_assert_cmpint (natural, <=, 62 * char_width);
  g_assert_cmpint (height, >=, 6 * height_one);
  g_object_unref (view);
  afg_test_db_free (db);
}

/* "Per step": the tooltip's calls, total and self divided, and said so. */
/* With durations, the tooltip lists min / p50 / p90 / p99 / max of the
 * frame's calls (nearest rank), not divided per step. */
static void
test_tooltip_durations (void)
{
  AfgTestEvent events[] = {
    { GTID (1, 2), 0, 100, "f" }, { GTID (1, 2), 200, 400, "f" }, { GTID (1, 2), 500, 800, "f" },
    { GTID (1, 2), 900, 1300, "f" }, { GTID (1, 2), 2000, 3000, "f" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  GtkWidget *view = g_object_ref_sink (afg_flame_view_new ());
  g_autofree char *min = afg_format_duration (100);
  g_autofree char *p50 = afg_format_duration (300);
  g_autofree char *rest = afg_format_duration (1000);
  g_autofree char *line = g_strdup_printf ("Call durations: %s / %s / %s / %s / %s\n", min, p50, rest, rest, rest);
  GtkWidget *tooltip;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), tree);
  wait_for_layout (view);
  afg_flame_view_set_divisor (AFG_FLAME_VIEW (view), 5);
  tooltip = g_object_ref_sink (afg_flame_view_create_tooltip (AFG_FLAME_VIEW (view), afg_test_find_node (tree, "1/2;f")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (tooltip)), line));
  g_object_unref (tooltip);
  tooltip = g_object_ref_sink (afg_flame_view_create_tooltip (AFG_FLAME_VIEW (view), afg_tree_get_thread (tree, 0)->node));
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (tooltip)), "Call durations"));
  g_object_unref (tooltip);
  g_object_unref (view);
  afg_test_db_free (db);
}

static void
test_tooltip_per_step (void)
{
  AfgTestEvent events[] = {
    { GTID (1, 2), 0, 1000, "f" }, { GTID (1, 2), 2000, 3000, "f" }, { GTID (1, 2), 4000, 5000, "f" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;
  GtkWidget *view = g_object_ref_sink (afg_flame_view_new ());
  g_autofree char *one = afg_format_duration (1000);
  g_autofree char *three = afg_format_duration (3000);
  g_autofree char *per_step = g_strdup_printf ("Calls / step: 1\nTotal / step: %s\nSelf / step: %s\n", one, one);
  g_autofree char *whole = g_strdup_printf ("Calls: 3\nTotal: %s\nSelf: %s\n", three, three);
  guint32 node;
  GtkWidget *tooltip;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  tree = afg_test_db_load (db);
  node = afg_test_find_node (tree, "1/2;f");
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), tree);
  wait_for_layout (view);
  tooltip = g_object_ref_sink (afg_flame_view_create_tooltip (AFG_FLAME_VIEW (view), node));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (tooltip)), whole));
  g_object_unref (tooltip);
  afg_flame_view_set_divisor (AFG_FLAME_VIEW (view), 3);
  tooltip = g_object_ref_sink (afg_flame_view_create_tooltip (AFG_FLAME_VIEW (view), node));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (tooltip)), per_step));
  g_object_unref (tooltip);
  g_object_unref (view);
  afg_test_db_free (db);
}

/* Flame orientation: the roots stay at the bottom when the view shrinks
 * below the content height or grows again. */
static void
test_widget_roots_anchored (void)
{
  AfgTestEvent events[30];
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *view = afg_flame_view_new ();
  GtkAdjustment *adj;
  char names[30][8];

  for (int i = 0; i < 30; i++)
    {
      g_snprintf (names[i], sizeof names[i], "f%d", i);
      events[i] = (AfgTestEvent) { GTID (1, 2), i, 1000 - i, names[i] };
    }
  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  tree = afg_test_db_load (db);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 900);
  gtk_window_present (GTK_WINDOW (window));
  afg_flame_view_set_icicle (AFG_FLAME_VIEW (view), FALSE);
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), tree);
  wait_for_layout (view);
  adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  for (int i = 0; i < 3; i++)
    {
      static const int heights[] = { 900, 300, 500 };

      gtk_window_set_default_size (GTK_WINDOW (window), 400, heights[i]);
      while (gtk_widget_get_height (view) > heights[i] || gtk_widget_get_height (view) < heights[i] - 100)
        g_main_context_iteration (NULL, TRUE);
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_test_message ("view %d px: value %.0f page %.0f upper %.0f", gtk_widget_get_height (view),
                      gtk_adjustment_get_value (adj), gtk_adjustment_get_page_size (adj),
                      gtk_adjustment_get_upper (adj));
      g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj),
                         ==, gtk_adjustment_get_upper (adj));
    }
  gtk_window_destroy (GTK_WINDOW (window));
  afg_test_db_free (db);
}

/* The GtkScrollable properties the flame view and the stack chart share
 * a helper for: what is set is read back, and the widget's own
 * properties around them still answer. */
static void
check_scrollable (GtkWidget *widget)
{
  GtkAdjustment *h = gtk_adjustment_new (1, 0, 10, 1, 1, 1);
  GtkAdjustment *v = gtk_adjustment_new (2, 0, 10, 1, 1, 1);
  GtkAdjustment *got_h = NULL, *got_v = NULL;
  GtkScrollablePolicy hp, vp;

  g_object_ref_sink (widget);
  g_object_get (widget, "hscroll-policy", &hp, "vscroll-policy", &vp, NULL);
  g_assert_cmpint (hp, ==, GTK_SCROLL_MINIMUM);
  g_assert_cmpint (vp, ==, GTK_SCROLL_MINIMUM);
  g_object_set (widget, "hadjustment", h, "vadjustment", v, "vscroll-policy", GTK_SCROLL_NATURAL, NULL);
  g_object_get (widget, "hadjustment", &got_h, "vadjustment", &got_v,
                "hscroll-policy", &hp, "vscroll-policy", &vp, NULL);
  g_assert_true (got_h == h);
  g_assert_true (got_v == v);
  g_assert_cmpint (hp, ==, GTK_SCROLL_MINIMUM);
  g_assert_cmpint (vp, ==, GTK_SCROLL_NATURAL);
  g_object_set (widget, "hscroll-policy", GTK_SCROLL_NATURAL, NULL);
  g_object_get (widget, "hscroll-policy", &hp, NULL);
  g_assert_cmpint (hp, ==, GTK_SCROLL_NATURAL);
  g_object_unref (got_h);
  g_object_unref (got_v);
  g_object_unref (widget);
}

static void
test_scrollable_properties (void)
{
  GtkWidget *view = afg_flame_view_new ();
  gboolean icicle = FALSE;

  g_object_get (view, "icicle", &icicle, NULL);
  g_assert_true (icicle);
  g_object_set (view, "icicle", FALSE, NULL);
  g_object_get (view, "icicle", &icicle, NULL);
  g_assert_false (icicle);
  check_scrollable (view);
  check_scrollable (afg_stack_chart_new ());
}

/* A stack chart over a DB of one thread with three f rows (10 µs, 100
 * µs, 950 µs) and tasks on two streams, one of which has no stream id. */
static AfgStackChart *
small_chart (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  AfgStackChart *chart = AFG_STACK_CHART (g_object_ref_sink (afg_stack_chart_new ()));

  afg_test_db_add (db, GTID (1, 1), 0, 10000, "f");
  afg_test_db_add (db, GTID (1, 1), 2000000, 2100000, "f");
  afg_test_db_add (db, GTID (1, 1), 4000000, 4950000, "f");
  afg_test_db_add_task_on (db, 100, 200, AFG_TEST_NULL, 0, 2);
  afg_test_db_add_task_on (db, 300, 400, AFG_TEST_NULL, 0, AFG_TEST_NULL);
  afg_test_db_close (db);
  document = afg_document_load_with_flags (db->path, AFG_LOAD_KEEP_TASKS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  afg_test_db_free (db);
  afg_stack_chart_set_store (chart, afg_chart_store_new_kept (document));
  afg_stack_chart_set_scope (chart, 0, 5000000);
  return chart;
}

/* A lane whose stream id is NULL says "?", as the trace does. */
static void
test_chart_lane_labels (void)
{
  g_autoptr(AfgStackChart) chart = small_chart ();
  g_autofree char *lanes = afg_stack_chart_describe_lanes (chart);

  g_test_message ("%s", lanes);
  g_assert_nonnull (strstr (lanes, "NPU 0 · stream 2"));
  g_assert_nonnull (strstr (lanes, "NPU 0 · stream ?"));
  g_assert_null (strstr (lanes, "-9223372036854775808"));
}

/* F3 keeps the zoom unless the row is longer than the view: a 950 µs row
 * in a 1 ms view is centred at 1 ms; a view of 500 µs grows to show it. */
static void
test_chart_instance_zoom (void)
{
  g_autoptr(AfgStackChart) chart = small_chart ();
  GArray *events = g_array_new (FALSE, FALSE, sizeof (guint64));
  gint64 start, end;

  for (guint64 e = 0; e < 3; e++)
    g_array_append_val (events, e);
  afg_stack_chart_set_instances (chart, 0, events);
  afg_stack_chart_set_view (chart, 0, 1000000);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (afg_stack_chart_step_instance (chart, TRUE));
      afg_stack_chart_get_view (chart, &start, &end);
      g_assert_cmpint (end - start, ==, 1000000);
    }
  g_assert_cmpint (start, ==, 4475000 - 500000);
  afg_stack_chart_set_view (chart, 0, 500000);
  g_assert_true (afg_stack_chart_step_instance (chart, TRUE));
  g_assert_true (afg_stack_chart_step_instance (chart, TRUE));
  g_assert_true (afg_stack_chart_step_instance (chart, TRUE));
  afg_stack_chart_get_view (chart, &start, &end);
  g_assert_cmpint (end - start, >=, 950000);
  g_assert_cmpint (start, <=, 4000000);
  g_assert_cmpint (end, >=, 4950000);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add ("/flame-pixels/widget-colors", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_colors, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-search", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_search, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-highlight", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_highlight, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-zoom", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_zoom, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-flame", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_flame_orientation, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/renderer-hover", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_renderer_hover, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-stale-layout", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_stale_layout, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-selected-node", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_selected_node, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/renderer-narrow-selection", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_renderer_narrow_selection, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/renderer-match-marks", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_renderer_match_marks, afg_gui_tree_fixture_tear_down);
  g_test_add_func ("/flame-pixels/tooltip-wraps", test_tooltip_wraps);
  g_test_add_func ("/flame-pixels/chart-lane-labels", test_chart_lane_labels);
  g_test_add_func ("/flame-pixels/chart-instance-zoom", test_chart_instance_zoom);
  g_test_add_func ("/flame-pixels/tooltip-per-step", test_tooltip_per_step);
  g_test_add_func ("/flame-pixels/tooltip-durations", test_tooltip_durations);
  g_test_add_func ("/flame-pixels/widget-roots-anchored", test_widget_roots_anchored);
  g_test_add_func ("/flame-pixels/renderer-leaves", test_renderer_leaves);
  g_test_add_func ("/flame-pixels/scrollable-properties", test_scrollable_properties);
  return g_test_run ();
}
