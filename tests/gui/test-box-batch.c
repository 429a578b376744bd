/* SPDX-License-Identifier: MIT */
#include <cairo.h>
#include <glib.h>

#include "afg-box-batch.h"

#define WIDTH 400
#define HEIGHT 40

typedef struct {
  cairo_surface_t *surface;
  cairo_t         *cr;
  GString         *calls;  /* the labels drawn, in order */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  f->cr = cairo_create (f->surface);
  f->calls = g_string_new (NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  cairo_destroy (f->cr);
  cairo_surface_destroy (f->surface);
  g_string_free (f->calls, TRUE);
}

/* 0xAARRGGBB as stored (opaque pixels: not premultiplied in effect). */
static guint32
pixel (Fixture *f, int x, int y)
{
  cairo_surface_flush (f->surface);
  return *(guint32 *) (cairo_image_surface_get_data (f->surface) + y * cairo_image_surface_get_stride (f->surface)
                       + x * 4);
}

/* Labels in white over their box's left 4 px, and noted. */
static void
label (cairo_t *cr, guint32 name, double x, double y, double width, gpointer data)
{
  Fixture *f = data;

  g_string_append_printf (f->calls, "%u@%g,%g,%g ", name, x, y, width);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, x, y, 4, 4);
  cairo_fill (cr);
}

static void
test_colours (Fixture *f, gconstpointer data)
{
  AfgBoxBatch *batch = afg_box_batch_new ();

  /* Interleaved colours, each box keeps its own. */
  afg_box_batch_add_box (batch, 0xff0000, 0, 0, 10, 10);
  afg_box_batch_add_box (batch, 0x00ff00, 10, 0, 10, 10);
  afg_box_batch_add_box (batch, 0xff0000, 20, 0, 10, 10);
  afg_box_batch_add_box (batch, 0x0000ff, 30, 0, 10, 10);
  afg_box_batch_flush (batch, f->cr, label, f);
  g_assert_cmphex (pixel (f, 5, 5), ==, 0xffff0000);
  g_assert_cmphex (pixel (f, 15, 5), ==, 0xff00ff00);
  g_assert_cmphex (pixel (f, 25, 5), ==, 0xffff0000);
  g_assert_cmphex (pixel (f, 35, 5), ==, 0xff0000ff);
  g_assert_cmphex (pixel (f, 45, 5), ==, 0);
  afg_box_batch_free (batch);
}

/* More colours than the table first holds: each box still gets its own. */
static void
test_many_colours (Fixture *f, gconstpointer data)
{
  AfgBoxBatch *batch = afg_box_batch_new ();

  for (int round = 0; round < 2; round++)
    {
      for (guint i = 0; i < WIDTH; i++)
        afg_box_batch_add_box (batch, i * 0x010203 + round, i, 0, 1, 10);
      afg_box_batch_flush (batch, f->cr, label, f);
      for (guint i = 0; i < WIDTH; i++)
        g_assert_cmphex (pixel (f, i, 5), ==, 0xff000000 | (i * 0x010203 + round));
    }
  afg_box_batch_free (batch);
}

/* Outlines over all the boxes, labels over the outlines, in the order
 * they came; a flush forgets what it drew. */
static void
test_order (Fixture *f, gconstpointer data)
{
  AfgBoxBatch *batch = afg_box_batch_new ();

  afg_box_batch_add_label (batch, 7, 0, 0, 40);
  afg_box_batch_add_outline (batch, 0x000000, 0, 0, 40, 20, 2);
  afg_box_batch_add_box (batch, 0xff0000, 0, 0, 40, 20);
  afg_box_batch_add_label (batch, 9, 50, 0, 40);
  afg_box_batch_add_box (batch, 0x00ff00, 50, 0, 40, 20);
  afg_box_batch_flush (batch, f->cr, label, f);
  g_assert_cmpstr (f->calls->str, ==, "7@0,0,40 9@50,0,40 ");
  g_assert_cmphex (pixel (f, 1, 1), ==, 0xffffffff);      /* the label */
  g_assert_cmphex (pixel (f, 1, 10), ==, 0xff000000);     /* the outline */
  g_assert_cmphex (pixel (f, 20, 10), ==, 0xffff0000);    /* the box */
  g_assert_cmphex (pixel (f, 60, 10), ==, 0xff00ff00);

  cairo_set_operator (f->cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (f->cr);
  cairo_set_operator (f->cr, CAIRO_OPERATOR_OVER);
  afg_box_batch_flush (batch, f->cr, label, f);
  g_assert_cmpstr (f->calls->str, ==, "7@0,0,40 9@50,0,40 ");
  g_assert_cmphex (pixel (f, 20, 10), ==, 0);
  afg_box_batch_free (batch);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/box-batch/colours", Fixture, NULL, fixture_set_up, test_colours, fixture_tear_down);
  g_test_add ("/box-batch/many-colours", Fixture, NULL, fixture_set_up, test_many_colours, fixture_tear_down);
  g_test_add ("/box-batch/order", Fixture, NULL, fixture_set_up, test_order, fixture_tear_down);
  return g_test_run ();
}
