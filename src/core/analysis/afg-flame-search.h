/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

typedef struct {
  guint   n_matches;
  gint64  matched_ns;
  gint64  view_ns;
} AfgFlameSearchResult;

/* Whether @name contains @folded, a needle lowered with g_utf8_strdown:
 * case ignored for every letter, as every search of the window does. */
gboolean afg_flame_search_name_has (const char           *name,
                                    const char           *folded);
/* A byte per node: 1 where the name contains @needle, case ignored for
 * every letter. The root and the thread frames never match. */
guint8 *afg_flame_search_match     (const AfgTree        *tree,
                                    const char           *needle);
/* Matches under @root, and the @weight of those with no matching
 * ancestor (nested matches are not counted twice). */
void    afg_flame_search_summarize (const AfgTree        *tree,
                                    AfgColumn             weight,
                                    const guint8         *matches,
                                    guint32               root,
                                    AfgFlameSearchResult *result);

/* The matches under @root (@root too), depth first, children in order:
 * the order F3 steps through them. */
GArray *afg_flame_search_list      (const AfgTree        *tree,
                                    const guint8         *matches,
                                    guint32               root);
/* What to zoom to so that @node, under @view_root, is at least @min_px
 * wide in a view @width_px wide by @weight: its highest ancestor (up to
 * @view_root) under which it is that wide, else @node itself. */
guint32 afg_flame_search_reveal_root (const AfgTree      *tree,
                                      AfgColumn           weight,
                                      guint32             view_root,
                                      guint32             node,
                                      double              width_px,
                                      double              min_px);

G_END_DECLS
