/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-diff-shape.h"
#include "afg-writers.h"

G_BEGIN_DECLS

/* {"format":"ascend-flamegraph-diff","version":1,"a":{"source","stats",
 * "scope"},"b":{…},"options":{"merge_addresses"},"children":[NODE]},
 * NODE = {"name","category","a":{"calls","total_ns","self_ns"},"b":{…},
 * "children"}: the tree under the thread-free root, children by name. */
void        afg_diff_json_write        (AfgDiffShape      *diff,
                                        GString           *out);
/* `frame;frame;… A_SELF B_SELF` per frame with self time on either side,
 * depth-first: the input of flamegraph.pl's and Inferno's differential
 * mode (difffolded.pl's output). */
void        afg_diff_folded_write      (AfgDiffShape      *diff,
                                        GString           *out);
G_END_DECLS
