/* SPDX-License-Identifier: MIT */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* Boxes, outlines and labels gathered while a picture is walked and
 * drawn at once: the boxes as one path per colour (a cairo fill per box
 * costs more than its pixels), then the outlines and the labels over
 * them, in the order they came. */
typedef struct _AfgBoxBatch AfgBoxBatch;

/* Draws the label of @name clipped to the box at (@x, @y), @width wide. */
typedef void (*AfgBoxLabelFunc) (cairo_t *cr,
                                 guint32  name,
                                 double   x,
                                 double   y,
                                 double   width,
                                 gpointer user_data);

AfgBoxBatch *afg_box_batch_new         (void);
void         afg_box_batch_free        (AfgBoxBatch *self);
/* @rgb: 0xRRGGBB, opaque. */
void         afg_box_batch_add_box     (AfgBoxBatch *self,
                                        guint32      rgb,
                                        double       x,
                                        double       y,
                                        double       width,
                                        double       height);
/* A rectangle stroked @line_width wide, inside the box given. */
void         afg_box_batch_add_outline (AfgBoxBatch *self,
                                        guint32      rgb,
                                        double       x,
                                        double       y,
                                        double       width,
                                        double       height,
                                        double       line_width);
void         afg_box_batch_add_label   (AfgBoxBatch *self,
                                        guint32      name,
                                        double       x,
                                        double       y,
                                        double       width);
/* Draws what was added and forgets it. */
void         afg_box_batch_flush       (AfgBoxBatch     *self,
                                        cairo_t         *cr,
                                        AfgBoxLabelFunc  label,
                                        gpointer         user_data);

G_END_DECLS
