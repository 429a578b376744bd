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

/* A byte per node: 1 where the name contains @needle (case-insensitive).
 * The root never matches. */
guint8 *afg_flame_search_match     (const AfgTree        *tree,
                                    const char           *needle);
/* Matches under @root, and the @weight of those with no matching
 * ancestor (nested matches are not counted twice). */
void    afg_flame_search_summarize (const AfgTree        *tree,
                                    AfgColumn             weight,
                                    const guint8         *matches,
                                    guint32               root,
                                    AfgFlameSearchResult *result);

G_END_DECLS
