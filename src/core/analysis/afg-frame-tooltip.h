/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* One line of a frame's tooltip: "Total / step" and "193.76 ms". */
typedef struct {
  char *label;
  char *value;
} AfgTooltipRow;

/* The lines the window's tooltip shows for @node under the title
 * (afg_tree_get_node_title): category, calls, host total and self,
 * the NPU lines when the tree has NPU data, the shares of @weight in the
 * root and in @zoom_root, and the call durations when the tree has them
 * (one value, "min / p50 / p90 / p99 / max", not divided). Values but
 * the shares and durations are divided by @divisor ("Per step", >= 1),
 * as the page's tooltip divides them, in afg-format.h's texts. */
GPtrArray *afg_frame_tooltip_rows (const AfgTree *tree,
                                   guint32        node,
                                   AfgColumn      weight,
                                   guint          divisor,
                                   guint32        zoom_root);

G_END_DECLS
