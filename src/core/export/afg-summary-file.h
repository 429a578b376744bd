/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-frame-reducer.h"
#include "afg-rank-summary.h"

G_BEGIN_DECLS

#define AFG_SUMMARY_FORMAT "ascend-flamegraph-rank-summary"

/* The options a rank's figures depend on: summaries merged into one
 * job must agree on them. */
typedef struct {
  gboolean has_steps;
  gint64   first_step;
  gint64   last_step;
  gboolean merge_addresses;
  gboolean npu_idle;
} AfgSummaryOptions;

/* summary-rank{N}.json: everything ranks.json and index.html need of
 * one rank (its figures, collectives and frame totals) and @options. */
char           *afg_summary_file_write      (const AfgRankSummary    *rank,
                                             const AfgSummaryOptions *options);
/* NULL with an error (G_IO_ERROR_INVALID_DATA) when @text is not such a
 * file; *@options is set from it. With @reducer, the frame totals go to
 * it (afg_frame_reducer_add()) instead of the summary's table. */
AfgRankSummary *afg_summary_file_read       (const char              *text,
                                             gsize                    length,
                                             AfgFrameReducer         *reducer,
                                             AfgSummaryOptions       *options,
                                             GError                 **error);
gboolean        afg_summary_options_equal   (const AfgSummaryOptions *a,
                                             const AfgSummaryOptions *b);

/* How a rank's device split is written: an object in ranks.json, an
 * array in the summary file. */
typedef void (*AfgDeviceWriteFunc) (GString              *out,
                                    gboolean              has_device,
                                    const AfgDeviceSplit *split);
/* ,"rows","threads","host_ns","npu_ns",device,"comm_ns" of @rank, as
 * both files write them. */
void            afg_summary_append_figures  (GString                 *out,
                                             const AfgRankSummary    *rank,
                                             AfgDeviceWriteFunc       append_device);
/* ,"steps":[{"id","host_ns","npu_ns",device},…] of @rank, as both files
 * write them. */
void            afg_summary_append_steps    (GString                 *out,
                                             const AfgRankSummary    *rank,
                                             AfgDeviceWriteFunc       append_device);

G_END_DECLS
