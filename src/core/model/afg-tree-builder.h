/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-event-sort.h"
#include "afg-profile-private.h"

G_BEGIN_DECLS

/* Rebuilds call stacks from interval containment, one thread at a time,
 * merging same-named siblings, then lays the result out in @profile. */
typedef struct _AfgTreeBuilder AfgTreeBuilder;

AfgTreeBuilder *afg_tree_builder_new          (AfgProfile     *profile,
                                               GCancellable   *cancellable);
void            afg_tree_builder_free         (AfgTreeBuilder *self);
/* Threads must be added in ascending global tid. Returns FALSE when
 * cancelled. */
gboolean        afg_tree_builder_add_thread   (AfgTreeBuilder *self,
                                               gint64          global_tid,
                                               AfgChunk       *chunks);
void            afg_tree_builder_finish       (AfgTreeBuilder *self);

G_END_DECLS
