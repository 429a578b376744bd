/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "afg-device-timeline.h"
#include "afg-npu.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-string-table.h"
#include "afg-task-kinds.h"

G_BEGIN_DECLS

typedef enum {
  AFG_NPU_SCHEMA_ABSENT,    /* no TASK or no CONNECTION_IDS: no NPU data, silently */
  AFG_NPU_SCHEMA_USABLE,
  AFG_NPU_SCHEMA_UNUSABLE,  /* present but not readable: no NPU data, a warning */
} AfgNpuSchema;

/* TASK(startNs, endNs, connectionId) and CONNECTION_IDS(id, connectionId)
 * are read only as plain tables with those columns, and only when
 * PYTORCH_API has connectionId. For UNUSABLE, @warning says why. */
AfgNpuSchema afg_npu_check_schema (sqlite3          *db,
                                   const AfgSource  *source,
                                   char            **warning);

/* TASK alone is readable: the device timeline needs no link to the host,
 * so it is made from TASK whatever CONNECTION_IDS is. */
gboolean     afg_npu_task_table_usable (sqlite3 *db);

/* NULL when @table is a plain table with @columns, else why not (translated). */
char        *afg_npu_table_problem (sqlite3          *db,
                                    const char       *table,
                                    const char * const *columns,
                                    guint             n);

/* Is @id a connection id that can link (-1 and 4294967295 mean none)? */
static inline gboolean
afg_npu_is_link (gint64 id)
{
  return id != -1 && id != G_GINT64_CONSTANT (4294967295);
}

/* The used tasks of a DB, grouped by connection id, and the CONNECTION_IDS
 * rows that lead to them: read before PYTORCH_API, so that the loader
 * keeps only the rows that can launch something. */
typedef struct _AfgNpuTasks AfgNpuTasks;

/* What else a reader takes from TASK's one scan: @row is called for each
 * row with a valid time, in rowid order, its columns startNs, endNs,
 * connectionId, then globalTaskId and taskType when TASK has the kinds'
 * columns, then deviceId and streamId from @device on (3 or 5); @reset
 * when a direct read gave up and SQLite reads the table again. */
typedef struct {
  void   (*row)   (gpointer data, const AfgRow *row, guint device);
  void   (*reset) (gpointer data);
  gpointer data;
} AfgNpuTaskHook;

/* Returns an SQLite result code; *@out is set on SQLITE_OK, with the
 * kinds read (afg_npu_tasks_read_kinds without kernels). With @btree
 * (may be NULL) the tables are read directly where they can be, as the
 * loader reads them (afg_npu_tasks_set_direct). With @hook (may be
 * NULL) on TASK's rows, TASK must have deviceId and streamId. Without
 * @links, CONNECTION_IDS is not read: no task reaches a row. */
int          afg_npu_tasks_read_hooked (sqlite3              *db,
                                        const AfgBtree       *btree,
                                        GCancellable         *cancellable,
                                        const AfgStringTable *types,
                                        GPtrArray            *warnings,
                                        const AfgNpuTaskHook *hook,
                                        gboolean              links,
                                        AfgNpuTasks         **out);
void         afg_npu_tasks_free   (AfgNpuTasks      *self);
/* The same @hook for a reader in steps, before TASK is read; the
 * claiming's indexes then stay until _free, so that
 * afg_npu_tasks_find_row() still answers after _link_begin. */
void         afg_npu_tasks_set_hook (AfgNpuTasks          *self,
                                     const AfgNpuTaskHook *hook);
/* afg_npu_tasks_read_hooked() in steps, for a loader that reads TASK and
 * CONNECTION_IDS at the same time on two connections (the two touch
 * nothing in common; read_tasks also groups the tasks by connection id);
 * then afg_npu_tasks_index() once both returned SQLITE_OK. */
AfgNpuTasks *afg_npu_tasks_new    (void);
/* Before reading TASK: whether it has the kinds' columns (a warning
 * line in @warnings when not) and whether collectives may come. */
void         afg_npu_tasks_check_kinds (AfgNpuTasks *self,
                                        sqlite3     *db,
                                        GPtrArray   *warnings);
/* Instead, when TASK cannot be read: the collectives of
 * afg_npu_tasks_read_ops() alone, with no task to classify. */
void         afg_npu_tasks_skip_tasks (AfgNpuTasks *self,
                                       GPtrArray   *warnings);
int          afg_npu_tasks_read_tasks (AfgNpuTasks *self,
                                       sqlite3     *db);
int          afg_npu_tasks_read_pairs (AfgNpuTasks *self,
                                       sqlite3     *db);
/* Reads TASK and CONNECTION_IDS from @btree (afg-table-scan.h) when it
 * can, stopping when @cancellable is cancelled. */
void         afg_npu_tasks_set_direct (AfgNpuTasks  *self,
                                       const AfgBtree *btree,
                                       GCancellable *cancellable);
/* Once TASK and CONNECTION_IDS are read, before _index: reads the kinds'
 * tables (afg-task-kinds.h), classifies the tasks (the DB's sums into
 * the data's kind_stats) and measures the collectives' exposure. With
 * @strings, the compute tasks and collectives that have a connection id
 * are kept, named in @strings, to be linked as tasks are; @types (the
 * same table, or a sealed one) names the task types. */
int          afg_npu_tasks_read_kinds (AfgNpuTasks   *self,
                                       sqlite3       *db,
                                       AfgStringTable *strings,
                                       const AfgStringTable *types,
                                       GPtrArray     *warnings);
/* afg_npu_tasks_read_kinds() in three steps, for a loader that
 * classifies while it reads PYTORCH_API. First, before _index, the
 * collectives (their connection ids group tasks too); @types names the
 * task types. */
int          afg_npu_tasks_read_ops   (AfgNpuTasks   *self,
                                       sqlite3       *db,
                                       const AfgStringTable *types,
                                       GPtrArray     *warnings);
/* Then, on any one thread while others read rows (it touches nothing
 * _wants reads, and looks @strings up without adding to them): each
 * task's kind, the exposure and the timeline. */
void         afg_npu_tasks_classify   (AfgNpuTasks   *self,
                                       AfgStringTable *strings);
/* The tasks _classify() has yet to classify. */
gsize        afg_npu_tasks_get_n_unclassified (const AfgNpuTasks *self);
/* Last, on the loading thread: the collectives' sums and leaves (their
 * base names are added to @strings). */
void         afg_npu_tasks_add_collectives (AfgNpuTasks   *self,
                                            AfgStringTable *strings);
/* Sealed by afg_npu_tasks_read_kinds(): the kind of any TASK row. */
AfgTaskKinds *afg_npu_tasks_get_kinds (AfgNpuTasks  *self);
/* The device timeline of every used task and collective, once the kinds
 * are read (NULL without any); the caller owns it. */
AfgDeviceTimeline *afg_npu_tasks_steal_timeline (AfgNpuTasks *self);
void         afg_npu_tasks_index  (AfgNpuTasks      *self);
/* FALSE when no PYTORCH_API row could take a task (no linkable task). */
gboolean     afg_npu_tasks_has_links (const AfgNpuTasks *self);
/* The CONNECTION_IDS rows that reach a task: at least as many as the
 * distinct PYTORCH_API connection ids that can take one. */
gsize        afg_npu_tasks_get_n_links (const AfgNpuTasks *self);
/* Can a PYTORCH_API row with connection id @api_id take tasks? If so,
 * @link names its connection id for the row lists below: the reader's
 * threads find it once, and the claiming, alone on one core after them,
 * needs no second lookup. Safe to call from several threads. */
gboolean     afg_npu_tasks_wants  (const AfgNpuTasks *self,
                                   gint64            api_id,
                                   guint64          *link);
/* Linking, around the encoding of the event store. _begin gives each
 * used task to the row of @row_lists with the lowest rowid among those it
 * reaches: @row_lists holds @n_lists AfgVecs of the links (guint64, from
 * afg_npu_tasks_wants()) of the rows that may launch, each in rowid order, the lists in
 * rowid order too; a row is known by its ordinal over them (@row_lists
 * may go once _begin returns); @thread_events has the number of events
 * of each of the store's @n_threads threads. _place is then told, for each thread in
 * its event order, where row @row landed (from several threads at once
 * for distinct threads); _end returns per thread of the store the entries
 * of the events that took tasks (and their kinds' entries). Once. */
void         afg_npu_tasks_link_begin (AfgNpuTasks  *self,
                                       const AfgVec *row_lists,
                                       guint         n_lists,
                                       guint         n_threads,
                                       const guint64 *thread_events);
void         afg_npu_tasks_link_place (AfgNpuTasks  *self,
                                       guint         thread,
                                       guint64       event,
                                       guint64       row);
AfgNpuData  *afg_npu_tasks_link_end   (AfgNpuTasks  *self);

/* The claiming of afg_npu_tasks_link_begin(), for a reader that wants to
 * know which row each task goes to rather than the sums: afterwards
 * afg_npu_tasks_find_row() gives the ordinal (over @row_lists, in order)
 * of the row that takes the tasks of TASK.connectionId @task_id. */
void         afg_npu_tasks_claim  (AfgNpuTasks      *self,
                                   const AfgVec     *row_lists,
                                   guint             n_lists);
gboolean     afg_npu_tasks_find_row (const AfgNpuTasks *self,
                                   gint64            task_id,
                                   guint64          *ordinal);

G_END_DECLS
