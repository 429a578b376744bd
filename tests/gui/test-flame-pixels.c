/* SPDX-License-Identifier: MIT */
#include <gtk/gtk.h>
#include <pango/pangocairo.h>

#include "afg-flame-renderer.h"
#include "afg-flame-view.h"
#include "afg-gui-test-tree.h"

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
  afg_flame_color_for_name (afg_tree_get_node_name (f->profile, n),
                            afg_tree_get_node_category (f->profile, n), c);
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
  afg_flame_view_set_tree (AFG_FLAME_VIEW (view), f->profile);
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

static void
test_widget_zoom (AfgGuiTreeFixture *f, gconstpointer data)
{
  GtkWidget *window;
  GtkWidget *view = show_view (f, &window);
  Image img;
  g_autofree guchar *pixels = NULL;

  afg_flame_view_zoom_to (AFG_FLAME_VIEW (view), afg_gui_tree_node (f, "1/2;main.py(1): run;torch/nn.py(5): forward"));
  g_assert_true (afg_flame_view_is_zoomed (AFG_FLAME_VIEW (view)));
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

  afg_flame_view_set_flame (AFG_FLAME_VIEW (view), TRUE);
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
  AfgFlameLayout *layout = afg_flame_layout_new (f->profile, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  AfgFlameDrawState state = { WIDTH, HEIGHT, 0, FALSE, NULL, 5, AFG_FLAME_NO_FRAME };
  Image img;
  AfgFlameColor c, lighter;
  int x, y;

  afg_flame_renderer_set_tree (renderer, f->profile);
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

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add ("/flame-pixels/widget-colors", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_colors, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-search", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_search, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-zoom", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_zoom, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/widget-flame", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_widget_flame_orientation, afg_gui_tree_fixture_tear_down);
  g_test_add ("/flame-pixels/renderer-hover", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_renderer_hover, afg_gui_tree_fixture_tear_down);
  return g_test_run ();
}
