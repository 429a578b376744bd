/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-document.h"
#include "afg-scope.h"

G_BEGIN_DECLS

/* For each of @n bounded @scopes, the root totals afg_tree_build() would
 * give the tree of @document in that scope (host_ns[i]: its
 * AFG_COLUMN_TOTAL_NS, npu_ns[i]: its AFG_COLUMN_NPU_TOTAL_NS, 0 without
 * NPU data), from one walk of the event store instead of a tree each. */
void afg_scope_totals_compute (AfgDocument    *document,
                               const AfgScope *scopes,
                               guint           n,
                               gint64         *host_ns,
                               gint64         *npu_ns);

G_END_DECLS
