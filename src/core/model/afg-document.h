/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-category.h"
#include "afg-chart-tasks.h"
#include "afg-event-store.h"
#include "afg-math.h"
#include "afg-npu.h"
#include "afg-thread-role.h"

G_BEGIN_DECLS

typedef struct {
  guint64 rows;
  guint64 used;
  guint64 skipped_type;
  guint64 skipped_null;
  guint64 skipped_malformed;
  guint64 skipped_nonpositive;
  guint64 profiler_steps;
  guint64 partial_overlaps;
  guint64 depth_truncated;
} AfgStats;

/* One training step: [start_ns, end_ns). */
typedef struct {
  gint64 id;
  gint64 start_ns;
  gint64 end_ns;
} AfgStep;

/* end_ns - start_ns, saturated: a hostile DB's step may span more than
 * G_MAXINT64 ns (and may end before it starts, then it is negative). */
static inline gint64
afg_step_get_ns (const AfgStep *step)
{
  return afg_sat_sub (step->end_ns, step->start_ns);
}

/* What was loaded from one profiler DB, immutable once loaded and shared
 * between threads: the source, the load's counts, the names, the steps
 * and the event store. Trees are built from it (afg-tree-builder.h). */
typedef struct _AfgDocument AfgDocument;

AfgDocument          *afg_document_ref              (AfgDocument       *self);
void                  afg_document_unref            (AfgDocument       *self);
const char           *afg_document_get_source_path  (const AfgDocument *self);
/* The file name, printable (afg_format_path). */
const char           *afg_document_get_source_name  (const AfgDocument *self);
guint64               afg_document_get_source_bytes (const AfgDocument *self);
double                afg_document_get_load_seconds (const AfgDocument *self);
/* The counts of the load; used, partial_overlaps and depth_truncated are
 * the tree's (afg_tree_get_stats). */
const AfgStats       *afg_document_get_load_stats   (const AfgDocument *self);
const AfgEventStore  *afg_document_get_events       (const AfgDocument *self);
/* Sorted by id; none when the DB marks no steps. */
const AfgStep        *afg_document_get_steps        (const AfgDocument *self,
                                                     guint             *n_steps);
const AfgStep        *afg_document_find_step        (const AfgDocument *self,
                                                     gint64             id);
guint                 afg_document_get_n_strings    (const AfgDocument *self);
const char           *afg_document_get_string       (const AfgDocument *self,
                                                     guint32            index);
AfgCategory           afg_document_get_category     (const AfgDocument *self,
                                                     guint32            index);
/* The string with every " at 0x<hex>" of string @index as " at 0x…". */
guint32               afg_document_get_merged_name  (const AfgDocument *self,
                                                     guint32            index);
/* NULL when the DB has no NPU data (no TASK or CONNECTION_IDS, or
 * tables that cannot be read: see afg_document_get_npu_warning). */
const AfgNpuStats    *afg_document_get_npu_stats    (const AfgDocument *self);
/* The device time launched by thread @index's events (of the event
 * store), sorted by event index; NULL and 0 without NPU data. */
const AfgNpuEntry    *afg_document_get_npu_entries  (const AfgDocument *self,
                                                     guint              index,
                                                     guint             *n_entries);
/* Why TASK and CONNECTION_IDS, though present, gave no NPU data; NULL
 * when nothing is wrong. Translated, one line. */
const char           *afg_document_get_npu_warning  (const AfgDocument *self);
/* The device work of the whole DB by kind; NULL without NPU data. */
const AfgNpuKindStats *afg_document_get_npu_kind_stats (const AfgDocument *self);
/* The compute tasks and collectives launched by thread @index's events,
 * sorted by event index; NULL and 0 without NPU data or none. */
const AfgNpuKindEntry *afg_document_get_npu_kind_entries (const AfgDocument *self,
                                                          guint              index,
                                                          guint             *n_entries);
/* The kernel leaves the kind entries point into. */
const AfgNpuKernel   *afg_document_get_npu_kernels  (const AfgDocument *self);
/* Why tables of the kinds, though present, were not read: one line
 * each, translated (char *); empty when nothing is wrong. */
const GPtrArray      *afg_document_get_kind_warnings (const AfgDocument *self);
/* What thread @index of the event store does (afg_thread_roles_assign). */
AfgThreadRole         afg_document_get_thread_role  (const AfgDocument *self,
                                                     guint              index);
/* "main · pid/tid", or "pid/tid" for a thread without a role. */
const char           *afg_document_get_thread_title (const AfgDocument *self,
                                                     guint              index);
/* Every used TASK row and collective in the stack chart's form, kept by
 * a load with AFG_LOAD_KEEP_TASKS (none when TASK has no usable
 * deviceId and streamId); NULL for any other load. */
const AfgChartTasks  *afg_document_get_chart_tasks  (const AfgDocument *self);
/* The string index of the tree root's name ("All threads", translated). */
guint32               afg_document_get_root_name    (const AfgDocument *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDocument, afg_document_unref)

G_END_DECLS
