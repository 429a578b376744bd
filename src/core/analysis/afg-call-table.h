/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* Every call of a tree's frames, with the frame it counts in, its
 * duration there and the call it is nested in: what a transform needs to
 * keep the per-call durations (and so the percentiles) right when it
 * merges frames or takes time from them. */
typedef struct _AfgCallTable {
  guint32  n;
  guint32 *node;     /* the frame, AFG_NODE_NONE once a transform removed it */
  gint64  *ns;       /* the duration in that frame */
  guint32 *parent;   /* the enclosing call, AFG_NODE_NONE for a top-level one */
} AfgCallTable;

/* The calls of @tree, a tree built from its document, walked again from
 * its event store. NULL only when cancelled. */
AfgCallTable *afg_call_table_build   (AfgTree            *tree,
                                      GCancellable       *cancellable);
AfgCallTable *afg_call_table_copy    (const AfgCallTable *self);
void          afg_call_table_free    (AfgCallTable       *self);
/* Each call whose frame is marked in @take (by node) gives its duration
 * back: it is taken from every enclosing call still in the tree, up to
 * (not including) the first whose frame is marked in @stop (by node;
 * NULL: up to the top). */
void          afg_call_table_take    (AfgCallTable       *self,
                                      const guint8       *take,
                                      const guint8       *stop);
/* Before afg_call_table_remap() with the same @map: each call nested in a
 * call whose frame is marked in @anchor and removed by @map (an inner F
 * of an indirect recursion) is nested instead in the nearest enclosing
 * call of a marked frame that @map keeps (the outermost F), as its frame
 * moves there; the frames between are its ancestors no more, and a later
 * transform must not take its time from them. */
void          afg_call_table_lift    (AfgCallTable       *self,
                                      const guint8       *anchor,
                                      const guint32      *map);
/* Moves every call to @map[its frame] (AFG_NODE_NONE: removed). */
void          afg_call_table_remap   (AfgCallTable       *self,
                                      const guint32      *map);
/* Fills @tree's five AFG_COLUMN_DURATION_* columns from the calls. */
void          afg_call_table_fill_durations (const AfgCallTable *self,
                                             AfgTree            *tree);
/* Appends the duration of every call of a frame marked in @marks. */
void          afg_call_table_collect (const AfgCallTable *self,
                                      const guint8       *marks,
                                      GArray             *out);

G_END_DECLS
