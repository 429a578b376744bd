/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-device-timeline.h"
#include "afg-document.h"
#include "afg-npu.h"
#include "afg-string-table.h"

G_BEGIN_DECLS

struct _AfgDocument {
  char           *source_path;
  char           *source_name;
  guint64         source_bytes;
  AfgStats        stats;
  double          load_seconds;
  AfgStringTable  strings;
  guint32         root_name;
  guint32        *merged_names;  /* per string: its afg_address_merge()d string */
  AfgEventStore  *events;
  GArray         *steps;  /* AfgStep, by id */
  GArray         *step_tids;    /* gint64 per used ProfilerStep# row, until the seal */
  guint8         *thread_roles; /* AfgThreadRole per thread of the event store */
  guint32        *thread_titles; /* string index per thread: afg_thread_role_describe() */
  AfgNpuData     *npu;          /* NULL without usable TASK/CONNECTION_IDS */
  char           *npu_warning;  /* why tables that are there gave no NPU data */
  GPtrArray      *kind_warnings; /* char *: why tables that are there gave no task kinds */
  AfgDeviceTimeline *timeline;  /* NULL without usable TASK rows */
  GArray         *collectives;  /* AfgDocCollective, or NULL */
  AfgChartTasks  *chart_tasks;  /* NULL unless the load kept the tasks */
  GMutex          idle_lock;    /* idle_sets is filled on demand, by any thread */
  GHashTable     *idle_sets;    /* (first << 32 | last) step index -> AfgSpans */
};

AfgDocument *afg_document_new          (const char  *source_path,
                                        guint64      source_bytes);
/* Called by the loader once every string and event is in: fixes the
 * categories and the root's name, so the document can be shared. */
void         afg_document_seal         (AfgDocument *self);
/* afg-document-timeline.c: takes @timeline (may be NULL), before the seal. */
void         _afg_document_set_timeline   (AfgDocument       *self,
                                           AfgDeviceTimeline *timeline);
void         _afg_document_clear_timeline (AfgDocument       *self);
/* Takes @collectives (AfgDocCollective; may be NULL), before the seal. */
void         _afg_document_set_collectives (AfgDocument      *self,
                                            GArray           *collectives);

G_END_DECLS
