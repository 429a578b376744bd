/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-box-batch.h"

#define NO_BOX G_MAXUINT32

typedef struct {
  guint32 prev;   /* the box of the same colour before, or NO_BOX */
  float   x, y, width, height;
} Box;

/* The boxes of a colour, chained from the last one. */
typedef struct {
  guint32 rgb;
  guint32 last;
} Group;

typedef struct {
  guint32 rgb;    /* or the label's name */
  float   x, y, width, height, line_width;
} Mark;

/* The colours are found through an open-addressed table, which costs
 * less per box than sorting them or a GHashTable. */
struct _AfgBoxBatch {
  GArray *groups;    /* Group, in the order the colours came */
  guint32 *slots;    /* group + 1 by the colour's hash, 0 empty */
  guint   n_slots;   /* a power of two, over twice the groups */
  GArray *boxes;     /* Box */
  GArray *outlines;  /* Mark */
  GArray *labels;    /* Mark */
};

AfgBoxBatch *
afg_box_batch_new (void)
{
  AfgBoxBatch *self = g_new0 (AfgBoxBatch, 1);

  self->groups = g_array_new (FALSE, FALSE, sizeof (Group));
  self->n_slots = 256;
  self->slots = g_new0 (guint32, self->n_slots);
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
  g_array_unref (self->groups);
  g_free (self->slots);
  g_array_unref (self->boxes);
  g_array_unref (self->outlines);
  g_array_unref (self->labels);
  g_free (self);
}

static guint32 *
find_slot (guint32 *slots, guint n_slots, const Group *groups, guint32 rgb)
{
  guint i = (rgb * 2654435761u) & (n_slots - 1);

  while (slots[i] != 0 && groups[slots[i] - 1].rgb != rgb)
    i = (i + 1) & (n_slots - 1);
  return &slots[i];
}

static void
grow_slots (AfgBoxBatch *self)
{
  const Group *groups = (const Group *) self->groups->data;

  g_free (self->slots);
  self->n_slots *= 2;
  self->slots = g_new0 (guint32, self->n_slots);
  for (guint g = 0; g < self->groups->len; g++)
    *find_slot (self->slots, self->n_slots, groups, groups[g].rgb) = g + 1;
}

static Group *
find_group (AfgBoxBatch *self, guint32 rgb)
{
  guint32 *slot = find_slot (self->slots, self->n_slots, (const Group *) self->groups->data, rgb);

  Group group = { rgb, NO_BOX };

  if (*slot != 0)
    return &g_array_index (self->groups, Group, *slot - 1);
  g_array_append_val (self->groups, group);
  *slot = self->groups->len;
  if (self->groups->len * 2 > self->n_slots)
    grow_slots (self);
  return &g_array_index (self->groups, Group, self->groups->len - 1);
}

void
afg_box_batch_add_box (AfgBoxBatch *self, guint32 rgb, double x, double y, double width, double height)
{
  Group *group = find_group (self, rgb);
  Box box = { group->last, x, y, width, height };

  group->last = self->boxes->len;
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

static void
set_rgb (cairo_t *cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, (rgb >> 16 & 0xff) / 255.0, (rgb >> 8 & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
fill_boxes (AfgBoxBatch *self, cairo_t *cr)
{
  const Box *boxes = (const Box *) self->boxes->data;

  for (guint g = 0; g < self->groups->len; g++)
    {
      const Group *group = &g_array_index (self->groups, Group, g);

      set_rgb (cr, group->rgb);
      for (guint32 i = group->last; i != NO_BOX; i = boxes[i].prev)
        cairo_rectangle (cr, boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height);
      cairo_fill (cr);
    }
  g_array_set_size (self->groups, 0);
  memset (self->slots, 0, self->n_slots * sizeof (guint32));
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
