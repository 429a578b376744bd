/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-profile.h"

G_BEGIN_DECLS

/* The node id of the virtual "All threads" root, whose children are the
 * thread roots. */
#define AFG_FLAME_ROOT_ALL (G_MAXUINT32 - 1)
#define AFG_FLAME_NO_FRAME G_MAXUINT32

/* One rectangle of the flame graph. x and width are fractions of the view
 * width so the layout does not depend on the widget size. */
typedef struct {
  guint32 node;
  guint32 row;
  double  x;
  double  width;
} AfgFlameFrame;

typedef struct {
  double red;
  double green;
  double blue;
} AfgFlameColor;

typedef struct _AfgFlameLayout AfgFlameLayout;

AfgFlameLayout      *afg_flame_layout_new             (AfgProfile           *profile,
                                                       guint32               view_root,
                                                       guint32               zoom_root);
void                 afg_flame_layout_free            (AfgFlameLayout       *self);
AfgProfile          *afg_flame_layout_get_profile     (const AfgFlameLayout *self);
guint32              afg_flame_layout_get_view_root   (const AfgFlameLayout *self);
guint32              afg_flame_layout_get_zoom_root   (const AfgFlameLayout *self);
guint                afg_flame_layout_get_zoom_row    (const AfgFlameLayout *self);
const AfgFlameFrame *afg_flame_layout_get_frames      (const AfgFlameLayout *self,
                                                       guint                *n_frames);
guint                afg_flame_layout_get_n_rows      (const AfgFlameLayout *self);
guint                afg_flame_layout_get_row_start   (const AfgFlameLayout *self,
                                                       guint                 row);
guint32              afg_flame_layout_hit_test        (const AfgFlameLayout *self,
                                                       guint                 row,
                                                       double                x,
                                                       double                min_width);
guint32              afg_flame_layout_find_node       (const AfgFlameLayout *self,
                                                       guint32               node);
guint32              afg_flame_layout_get_parent      (const AfgFlameLayout *self,
                                                       guint32               frame);
guint32              afg_flame_layout_get_first_child (const AfgFlameLayout *self,
                                                       guint32               frame);

/* Node-level helpers that understand the virtual root. */
guint32              afg_flame_node_get_parent        (AfgProfile           *profile,
                                                       guint32               view_root,
                                                       guint32               node);
gint64               afg_flame_node_get_total         (AfgProfile           *profile,
                                                       guint32               node);
const char          *afg_flame_node_get_name          (AfgProfile           *profile,
                                                       guint32               node);
gboolean             afg_flame_node_is_descendant     (AfgProfile           *profile,
                                                       guint32               node,
                                                       guint32               ancestor);

/* Search: a bitmap over the profile's nodes. */
typedef struct {
  guint   n_matches;
  gint64  matched_ns;
  gint64  view_ns;
} AfgFlameSearchResult;

guint8              *afg_flame_search_match           (AfgProfile           *profile,
                                                       const char           *needle);
void                 afg_flame_search_summarize       (AfgProfile           *profile,
                                                       const guint8         *matches,
                                                       guint32               root,
                                                       AfgFlameSearchResult *result);

guint32              afg_flame_hash_name              (const char           *name);
void                 afg_flame_color_for_name         (const char           *name,
                                                       AfgCategory           category,
                                                       AfgFlameColor        *color);

G_END_DECLS
