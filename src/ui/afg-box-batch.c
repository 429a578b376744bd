/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "afg-box-batch.h"

typedef struct {
  guint32 rgb;
  guint32 order;  /* keeps a colour's boxes in the order they came */
  float   x, y, width, height;
} Box;

typedef struct {
  guint32 rgb;    /* or the label's name */
  float   x, y, width, height, line_width;
} Mark;

struct _AfgBoxBatch {
  GArray *boxes;     /* Box */
  GArray *outlines;  /* Mark */
  GArray *labels;    /* Mark */
};

AfgBoxBatch *
afg_box_batch_new (void)
{
  AfgBoxBatch *self = g_new0 (AfgBoxBatch, 1);

  self->boxes = g_array_new (FALSE, FALSE, sizeof (Box));
  self->outlines = g_array_new (FALSE, FALSE, sizeof (Mark));
  self->labels = g_array_new (FALSE, FALSE, sizeof (Mark));
  return self;
}

void
afg_box_batch_free (AfgBoxBatch *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->boxes);
  g_array_unref (self->outlines);
  g_array_unref (self->labels);
  g_free (self);
}

void
afg_box_batch_add_box (AfgBoxBatch *self, guint32 rgb, double x, double y, double width, double height)
{
  Box box = { rgb, self->boxes->len, x, y, width, height };

  g_array_append_val (self->boxes, box);
}

void
afg_box_batch_add_outline (AfgBoxBatch *self, guint32 rgb, double x, double y, double width, double height,
                           double line_width)
{
  Mark mark = { rgb, x, y, width, height, line_width };

  g_array_append_val (self->outlines, mark);
}

void
afg_box_batch_add_label (AfgBoxBatch *self, guint32 name, double x, double y, double width)
{
  Mark mark = { name, x, y, width, 0, 0 };

  g_array_append_val (self->labels, mark);
}

static int
compare_boxes (const void *a, const void *b)
{
  const Box *x = a, *y = b;

  if (x->rgb != y->rgb)
    return x->rgb < y->rgb ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void
set_rgb (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, (rgb >> 16 & 0xff) / 255.0, (rgb >> 8 & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
fill_boxes (AfgBoxBatch *self, cairo_t *cr)
{
  Box *boxes = (Box *) self->boxes->data;
  guint n = self->boxes->len;

  qsort (boxes, n, sizeof (Box), compare_boxes);
  for (guint i = 0; i < n;)
    {
      guint32 rgb = boxes[i].rgb;

      set_rgb (cr, rgb);
      for (; i < n && boxes[i].rgb == rgb; i++)
        cairo_rectangle (cr, boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height);
      cairo_fill (cr);
    }
}

void
afg_box_batch_flush (AfgBoxBatch *self, cairo_t *cr, AfgBoxLabelFunc label, gpointer user_data)
{
  fill_boxes (self, cr);
  for (guint i = 0; i < self->outlines->len; i++)
    {
      const Mark *m = &g_array_index (self->outlines, Mark, i);

      set_rgb (cr, m->rgb);
      cairo_set_line_width (cr, m->line_width);
      cairo_rectangle (cr, m->x + m->line_width / 2, m->y + m->line_width / 2, MAX (m->width - m->line_width, 1),
                       m->height - m->line_width);
      cairo_stroke (cr);
    }
  for (guint i = 0; i < self->labels->len; i++)
    {
      const Mark *m = &g_array_index (self->labels, Mark, i);

      label (cr, m->rgb, m->x, m->y, m->width, user_data);
    }
  g_array_set_size (self->boxes, 0);
  g_array_set_size (self->outlines, 0);
  g_array_set_size (self->labels, 0);
}
