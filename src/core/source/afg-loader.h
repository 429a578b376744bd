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

/* Reads the profiler DB at @path into a document (no tree yet). */
AfgDocument *afg_document_load       (const char           *path,
                                     GCancellable         *cancellable,
                                     AfgLoadProgressFunc   progress,
                                     gpointer              progress_data,
                                     GError              **error);

/* The progress callback of the async variant runs in the worker thread;
 * hand it to the main loop yourself (one pending idle at a time). */
void         afg_document_load_async (const char           *path,
                                     GCancellable         *cancellable,
                                     AfgLoadProgressFunc   progress,
                                     gpointer              progress_data,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
AfgDocument *afg_document_load_finish (GAsyncResult        *result,
                                     GError              **error);

G_END_DECLS
