/* SPDX-License-Identifier: MIT */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "afg-flame-layout.h"

G_BEGIN_DECLS

#define AFG_FLAME_ROW_HEIGHT 20

/* Everything about a redraw that is not the layout itself. */
typedef struct {
  int           width;
  int           height;
  double        scroll_y;
  gboolean      icicle;     /* root at the top instead of the bottom */
  const guint8 *matches;    /* per node, NULL when nothing is searched */
  guint32       hover;      /* frame index or AFG_FLAME_NO_FRAME */
  guint32       selected;   /* frame index or AFG_FLAME_NO_FRAME */
  const guint8 *highlight;  /* per node, NULL when no function is picked */
  guint32       hover_leaf; /* kernel leaf index or AFG_FLAME_NO_FRAME */
} AfgFlameDrawState;

typedef struct _AfgFlameRenderer AfgFlameRenderer;

/* Colours a node instead of the palette (a diff colours by change). */
typedef void (*AfgFlameColorFunc) (guint32        node,
                                   AfgFlameColor *color,
                                   gpointer       user_data);

AfgFlameRenderer *afg_flame_renderer_new             (PangoContext             *context);
void              afg_flame_renderer_free            (AfgFlameRenderer         *self);
void              afg_flame_renderer_set_tree        (AfgFlameRenderer         *self,
                                                      AfgTree                  *tree);
/* NULL for the palette; colours are asked for again after each call. */
void              afg_flame_renderer_set_color_func  (AfgFlameRenderer         *self,
                                                      AfgFlameColorFunc         func,
                                                      gpointer                  user_data);
void              afg_flame_renderer_draw_frames     (AfgFlameRenderer         *self,
                                                      cairo_t                  *cr,
                                                      const AfgFlameLayout     *layout,
                                                      const AfgFlameDrawState  *state);
void              afg_flame_renderer_draw_highlights (AfgFlameRenderer         *self,
                                                      cairo_t                  *cr,
                                                      const AfgFlameLayout     *layout,
                                                      const AfgFlameDrawState  *state);
double            afg_flame_row_get_y                (const AfgFlameLayout     *layout,
                                                      const AfgFlameDrawState  *state,
                                                      guint                     row);
guint32           afg_flame_frame_at                 (const AfgFlameLayout     *layout,
                                                      const AfgFlameDrawState  *state,
                                                      double                    x,
                                                      double                    y);
/* The kernel leaf at (@x, @y), or AFG_FLAME_NO_FRAME. */
guint32           afg_flame_leaf_at                  (const AfgFlameLayout     *layout,
                                                      const AfgFlameDrawState  *state,
                                                      double                    x,
                                                      double                    y);
int               afg_flame_content_height           (const AfgFlameLayout     *layout);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgFlameRenderer, afg_flame_renderer_free)

G_END_DECLS
