/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-atomic-file.h"
#include "afg-device-tasks.h"
#include "afg-tree.h"

G_BEGIN_DECLS

typedef enum {
  AFG_FORMAT_HTML,
  AFG_FORMAT_JSON,
  AFG_FORMAT_FOLDED,
  AFG_FORMAT_TRACE,
} AfgFormat;

/* What a folded stack weighs: host time or the device time it launched:
 * all tasks, compute tasks, collectives, or their exposed part. */
typedef enum {
  AFG_WEIGHT_HOST,
  AFG_WEIGHT_NPU,
  AFG_WEIGHT_COMPUTE,
  AFG_WEIGHT_COMM,
  AFG_WEIGHT_EXPOSED,
} AfgWeight;

#define AFG_N_WEIGHTS 5

/* "host", "npu", "compute", "comm" or "exposed". */
gboolean    afg_weight_from_string  (const char       *text,
                                     AfgWeight        *weight);
const char *afg_weight_to_string    (AfgWeight         weight);
/* The self column a weight sums: AFG_COLUMN_SELF_NS, AFG_COLUMN_NPU_SELF_NS, … */
AfgColumn   afg_weight_get_self_column (AfgWeight      weight);
AfgColumn   afg_weight_get_total_column (AfgWeight     weight);
/* The weight whose total column is @column; FALSE for none. */
gboolean    afg_weight_from_total_column (AfgColumn    column,
                                     AfgWeight        *weight);
/* Does @weight have kernel leaves (compute, comm, exposed)? */
gboolean    afg_weight_has_kernels  (AfgWeight         weight);
/* The value of a kernel leaf in @weight: 0 for a leaf of another kind. */
gint64      afg_weight_kernel_value (AfgWeight         weight,
                                     const AfgNpuKernel *kernel);

/* Serialisers append to @out; they are deterministic for a profile. */
void        afg_json_write          (const AfgTree    *tree,
                                     GString          *out);
/* One line per frame whose @self_column value is positive. */
void        afg_folded_write        (const AfgTree    *tree,
                                     AfgColumn         self_column,
                                     GString          *out);
/* As afg_folded_write() in @weight; with @kernels, the weight's kernel
 * leaves as `;[compute] NAME` or `;[communication] NAME` lines under
 * their frame, whose own line keeps what is on no leaf. */
void        afg_folded_write_weighted (const AfgTree  *tree,
                                     AfgWeight         weight,
                                     gboolean          kernels,
                                     GString          *out);
/* @name as one frame of a folded stack: ';', newlines and carriage
 * returns become spaces. */
void        afg_folded_append_frame (GString          *out,
                                     const char       *name);
/* The first @n functions by self time as a text table (calls, self,
 * total, % of all, name), with a header line; with AFG_WEIGHT_NPU by NPU
 * self time, the times and % those of the NPU device time. */
void        afg_top_write           (const AfgTree    *tree,
                                     guint             n,
                                     AfgWeight         weight,
                                     GString          *out);
/* The first @n kernels of @weight (compute, comm or exposed) summed over
 * every frame by kind and name, most first, as a text table. */
void        afg_top_write_kernels   (const AfgTree    *tree,
                                     guint             n,
                                     AfgWeight         weight,
                                     GString          *out);
gboolean    afg_html_write          (const AfgTree    *tree,
                                     GString          *out,
                                     GError          **error);

/* Takes each piece of a streamed output in turn. */
typedef gboolean (*AfgWriteFunc) (const char  *data,
                                  gsize        len,
                                  gpointer     user_data,
                                  GError     **error);
/* afg_json_write()'s text handed to @write_func in pieces as it is
 * made, on this thread alone: for a caller with one core, which the
 * whole text of a big tree (100 MB) would only cost memory. */
gboolean    afg_json_write_streamed (const AfgTree    *tree,
                                     AfgWriteFunc      write_func,
                                     gpointer          user_data,
                                     GError          **error);
/* Chrome Trace Event JSON (Perfetto, chrome://tracing) of @tree's
 * document in @tree's scope: every used row as a complete event on its
 * thread, the steps on a track of their own with the "NPU" counter of
 * each step's device split (ns), and @tasks (may be NULL) on
 * one process per device with a flow from each launching row. Streamed
 * to @write_func in pieces of about 1 MB. */
gboolean    afg_trace_write         (const AfgTree    *tree,
                                     const AfgDeviceTasks *tasks,
                                     AfgWriteFunc      write_func,
                                     gpointer          user_data,
                                     GError          **error);

const char *afg_format_file_name    (AfgFormat         format);
gboolean    afg_format_from_string  (const char       *text,
                                     AfgFormat        *format);
/* What an export writes. */
typedef struct {
  AfgFormat     format;
  AfgWeight     weight;       /* folded: what the stacks weigh (a tree
                               * without NPU data gives no NPU stacks) */
  gboolean      kernels;      /* folded: as afg_folded_write_weighted() */
  GCancellable *cancellable;  /* trace: stops the read of the device tasks */
  gboolean      streamed;     /* json: written as it is made, on this thread
                               * alone (afg_json_write_streamed()) */
} AfgExportOptions;

/* The one way to export: serialises @tree as @options say and writes
 * @path atomically (temp file beside it + rename); on error nothing is
 * left behind. A trace first reads the device tasks from the DB again
 * (afg_trace_reader_read); a DB that cannot give them still gets its
 * host tracks, and @warning (may be NULL) says why. */
gboolean    afg_export              (const AfgTree    *tree,
                                     const AfgExportOptions *options,
                                     const char       *path,
                                     char            **warning,
                                     GError          **error);
/* afg_export() to DIR/<the format's file name>, DIR made if need be;
 * @out_path (may be NULL) gets the file's path. */
gboolean    afg_export_to_dir       (const AfgTree    *tree,
                                     const AfgExportOptions *options,
                                     const char       *dir,
                                     char            **out_path,
                                     char            **warning,
                                     GError          **error);
/* As afg_export_to_dir(), but the file is left written and not yet
 * committed: afg_atomic_file_commit() (from any thread) fsyncs and
 * renames it into place, afg_atomic_file_abort() drops it. So that the
 * wait for the disk need not hold up the caller's next work. */
AfgAtomicFile *afg_export_to_dir_pending (const AfgTree *tree,
                                          const AfgExportOptions *options,
                                          const char    *dir,
                                          GError       **error);
/* Writes @data to @path through an atomic temp file (afg-atomic-file.h). */
gboolean    afg_export_write_data   (const char       *path,
                                     const char       *data,
                                     gsize             len,
                                     GError          **error);

/* FALSE, with G_FILE_ERROR, when @path is a directory or @tree's DB. */
gboolean    afg_export_check_path   (const AfgTree    *tree,
                                     const char       *path,
                                     GError          **error);

G_END_DECLS
