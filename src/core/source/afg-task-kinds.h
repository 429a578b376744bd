/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "afg-btree.h"
#include "afg-spans.h"
#include "afg-string-table.h"
#include "afg-vec.h"

G_BEGIN_DECLS

/* What a device task does. The order is the byte order of the names:
 * kernel leaves sort by it. */
typedef enum {
  AFG_TASK_KIND_COMMUNICATION,
  AFG_TASK_KIND_COMPUTE,
  AFG_TASK_KIND_OTHER,
} AfgTaskKind;

#define AFG_N_TASK_KINDS 3

/* "communication", "compute" or "other". */
const char *afg_task_kind_to_string (AfgTaskKind kind);

/* An id that is NULL, not an integer, -1 or 4294967295: matches nothing. */
#define AFG_TASK_NO_ID G_MININT64

/* A used COMMUNICATION_OP row (integer times, end >= start). */
typedef struct {
  gint64 start_ns;
  gint64 end_ns;
  gint64 link;        /* connectionId, or AFG_TASK_NO_ID */
  gint64 name_id;     /* opName as a STRING_IDS id, or AFG_TASK_NO_ID */
  gint64 exposed_ns;  /* set by afg_task_kinds_measure_exposure() */
  gint64 group_id;    /* groupName as a STRING_IDS id, or AFG_TASK_NO_ID */
} AfgCollective;

/* COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO and COMMUNICATION_OP, read
 * to tell each TASK row's kind. A missing table counts as empty; one that
 * is there but cannot be read too, with a warning. */
typedef struct _AfgTaskKinds AfgTaskKinds;

AfgTaskKinds  *afg_task_kinds_new           (void);
/* COMMUNICATION_TASK_INFO and COMPUTE_TASK_INFO, before TASK is read (a
 * task in the first is communication whatever else it is); then, once
 * TASK is, COMMUNICATION_OP. Each returns an SQLite result code; each
 * unusable table adds a line to @warnings (char *, translated). */
int            afg_task_kinds_read_info     (AfgTaskKinds         *self,
                                             sqlite3              *db,
                                             const AfgBtree       *btree,
                                             GCancellable         *cancellable,
                                             GPtrArray            *warnings);
int            afg_task_kinds_read_ops      (AfgTaskKinds         *self,
                                             sqlite3              *db,
                                             const AfgBtree       *btree,
                                             GCancellable         *cancellable,
                                             GPtrArray            *warnings);
/* The strings that name task types, only read (from the classifying
 * thread); without them no type is compute. */
void           afg_task_kinds_set_types     (AfgTaskKinds         *self,
                                             const AfgStringTable *strings);
void           afg_task_kinds_free          (AfgTaskKinds         *self);
/* Is @global_task_id in COMMUNICATION_TASK_INFO? */
gboolean       afg_task_kinds_is_comm_task  (const AfgTaskKinds   *self,
                                             gint64                global_task_id);
/* Rule 1 also takes the connection ids of the tasks in
 * COMMUNICATION_TASK_INFO: each is noted, then the set sealed, before
 * afg_task_kinds_classify(). */
void           afg_task_kinds_note_comm_link (AfgTaskKinds        *self,
                                             gint64                link);
void           afg_task_kinds_seal          (AfgTaskKinds         *self);
/* The kind of a TASK row; for COMPUTE, @name_id is the STRING_IDS id of
 * its kernel's name (COMPUTE_TASK_INFO.name, else @task_type), or
 * AFG_TASK_NO_ID. */
AfgTaskKind    afg_task_kinds_classify      (AfgTaskKinds         *self,
                                             gint64                link,
                                             gint64                global_task_id,
                                             gint64                task_type,
                                             gint64               *name_id);
/* Is @task_type's string, upper-cased with spaces as '_', PROFILING_…?
 * Such tasks are markers of the profiler, not work. */
gboolean       afg_task_kinds_is_profiling  (AfgTaskKinds         *self,
                                             gint64                task_type);
/* The used COMMUNICATION_OP rows, in rowid order. */
AfgCollective *afg_task_kinds_get_collectives (AfgTaskKinds       *self,
                                             gsize                *n);
/* Sets each collective's exposed_ns: its length that @compute (the
 * union of every compute task; NULL for none) does not cover. */
void           afg_task_kinds_measure_exposure (AfgTaskKinds      *self,
                                             const AfgSpans       *compute);

/* @name without a trailing "__<digits>_<digits>_<digits>" (the op's
 * index, as in hcom_allReduce__210_0_1); the length kept. */
gsize          afg_task_kinds_strip_op_suffix (const char         *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgTaskKinds, afg_task_kinds_free)

G_END_DECLS
