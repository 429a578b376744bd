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
/* The self-contained diff page (data/html/diff.html). */
gboolean    afg_diff_html_write        (AfgDiffShape      *diff,
                                        GString           *out,
                                        GError           **error);

/* Serialises @diff and writes @path atomically in @format (HTML, JSON
 * or folded; any other is an error), as the window's export does. */
gboolean    afg_diff_export_to_file    (AfgDiffShape      *diff,
                                        AfgFormat          format,
                                        const char        *path,
                                        GError           **error);
/* Serialises @diff and writes DIR/<its file name> atomically, as
 * afg_export_to_dir() does; neither side's DB is ever the output. */
gboolean    afg_diff_export_to_dir     (AfgDiffShape      *diff,
                                        AfgFormat          format,
                                        const char        *dir,
                                        char             **out_path,
                                        GError           **error);

G_END_DECLS
