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

G_END_DECLS
