/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-transform-list.h"

G_BEGIN_DECLS

/* Where a frame of the untransformed tree lands once a transform list is
 * applied, told by its path alone: the tree merges frames by path, so
 * the transforms (afg-tree-transform.h) are rewrites of each path. The
 * stack chart draws untransformed rows and finds their frames with it. */
typedef struct _AfgPathMapper AfgPathMapper;

/* NULL when @list cannot be compiled (it was checked when appended). */
AfgPathMapper *afg_path_mapper_new  (const AfgTransformList *list);
void           afg_path_mapper_free (AfgPathMapper          *self);
/* Rewrites @names (const char *, from the thread's top frame down) into
 * the path of the frame the last one lands in: a frame merged away lands
 * in the frame it merged into (an empty path: the thread). FALSE when
 * the frame is left out (dropped, or outside a focus). */
gboolean       afg_path_mapper_map  (const AfgPathMapper    *self,
                                     GPtrArray              *names);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgPathMapper, afg_path_mapper_free)

G_END_DECLS
