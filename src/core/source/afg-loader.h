/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-document.h"

G_BEGIN_DECLS

typedef enum {
  AFG_LOAD_PHASE_OPENING,
  AFG_LOAD_PHASE_READING,
  AFG_LOAD_PHASE_BUILDING,
} AfgLoadPhase;

/* Called from the loading thread, at most every few thousand rows.
 * rows_total is an estimate (0 when unknown). */
typedef void (*AfgLoadProgressFunc) (AfgLoadPhase phase,
                                     guint64      rows_read,
                                     guint64      rows_total,
                                     gpointer     user_data);

typedef enum {
  AFG_LOAD_DEFAULT    = 0,
  /* Keep every task in the document for the stack chart
   * (afg_document_get_chart_tasks): 16 bytes a task, and about 90 more
   * while loading; the window's load, not the command line's. */
  AFG_LOAD_KEEP_TASKS = 1 << 0,
} AfgLoadFlags;

/* Reads the profiler DB at @path into a document (no tree yet). */
AfgDocument *afg_document_load       (const char           *path,
                                     GCancellable         *cancellable,
                                     AfgLoadProgressFunc   progress,
                                     gpointer              progress_data,
                                     GError              **error);

AfgDocument *afg_document_load_with_flags (const char          *path,
                                          AfgLoadFlags         flags,
                                          GCancellable        *cancellable,
                                          AfgLoadProgressFunc  progress,
                                          gpointer             progress_data,
                                          GError             **error);

G_END_DECLS
