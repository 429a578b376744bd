/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* Every call merged into the frames of @tree marked in @marks (a byte per
 * node), as its duration in the tree's scope (ns, in event order): what
 * the AFG_COLUMN_DURATION_* percentiles are taken from, for a histogram.
 * The rows of the marked frames' threads are walked again from the
 * document's event store, nested the way the tree builder nests them.
 * Returns a GArray of gint64; NULL only when cancelled. */
GArray *afg_call_durations_collect (AfgTree       *tree,
                                    const guint8  *marks,
                                    GCancellable  *cancellable);

/* Each call of the threads marked in @threads (a byte per thread index;
 * NULL: all), in event order: the frame it became, its duration in the
 * tree's scope and its depth (1 for a top-level call), nested the way
 * the tree builder nests them. FALSE only when cancelled. For a tree
 * built from its document, not for a transformed one. */
typedef void (*AfgCallFunc) (guint32  node,
                             gint64   ns,
                             guint    depth,
                             gpointer data);

gboolean afg_call_durations_walk (AfgTree      *tree,
                                  const guint8 *threads,
                                  AfgCallFunc   func,
                                  gpointer      data,
                                  GCancellable *cancellable);

G_END_DECLS
