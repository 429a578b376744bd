/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "afg-diff-shape.h"
#include "afg-event-sort.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

G_BEGIN_DECLS

#define TYPE_OP    50001
#define TYPE_QUEUE 50002
#define TYPE_TRACE 50003
#define TYPE_MSTX  50004

/* pid << 32 | tid */
#define GTID(pid, tid) ((gint64) (((guint64) (pid) << 32) | (guint32) (tid)))

typedef enum {
  AFG_TEST_DB_DEFAULT        = 0,
  AFG_TEST_DB_NO_ENUM        = 1 << 0,  /* no ENUM_API_TYPE table */
  AFG_TEST_DB_NO_TYPE        = 1 << 1,  /* PYTORCH_API without the type column */
  AFG_TEST_DB_INTEGER_TIME   = 1 << 2,  /* startNs/endNs declared INTEGER */
  AFG_TEST_DB_WAL            = 1 << 3,  /* journal_mode=WAL, no autocheckpoint */
  AFG_TEST_DB_NO_PYTORCH_API = 1 << 4,
  AFG_TEST_DB_NO_STRING_IDS  = 1 << 5,
  AFG_TEST_DB_EMPTY          = 1 << 6,  /* an SQLite file with no tables at all */
  AFG_TEST_DB_NPU            = 1 << 7,  /* TASK, CONNECTION_IDS and STEP_TIME, empty */
  AFG_TEST_DB_TASK_VIEW      = 1 << 8,  /* ... with TASK a view of the table TASK_DATA */
  AFG_TEST_DB_TASK_TEXT      = 1 << 9,  /* ... with TASK.startNs declared TEXT */
} AfgTestDbFlags;

/* Stands for NULL where the helpers below take a value. */
#define AFG_TEST_NULL G_MININT64
/* A TASK.connectionId torch_npu writes for "no link" (-1 is the other). */
#define AFG_TEST_NO_LINK G_GINT64_CONSTANT (4294967295)

/* A profiler database in its own temporary directory. The writer
 * connection stays open until afg_test_db_close() (or a load). */
typedef struct {
  char       *dir;
  char       *path;
  sqlite3    *db;
  GHashTable *name_ids;   /* name -> id in STRING_IDS */
  gint64      next_id;
  sqlite3_stmt *insert;
  sqlite3_stmt *insert_connected;
  sqlite3_stmt *insert_task;
  sqlite3_stmt *insert_link;
  sqlite3_stmt *insert_step;
  gint64      n_tasks;
} AfgTestDb;

typedef struct {
  gint64      global_tid;
  gint64      start;
  gint64      end;
  const char *name;
} AfgTestEvent;

AfgTestDb  *afg_test_db_new          (AfgTestDbFlags     flags);
void        afg_test_db_free         (AfgTestDb         *self);
/* Frees @self but keeps the DB and its directory; returns the DB's path. */
char       *afg_test_db_keep         (AfgTestDb         *self);
void        afg_test_db_exec         (AfgTestDb         *self,
                                      const char        *sql);
/* SQL for the ways a DB's tasks lose their links to the host: no
 * CONNECTION_IDS, PYTORCH_API without connectionId, CONNECTION_IDS a
 * view (the last two warn, the first does not). */
#define AFG_TEST_N_UNLINKS 3
extern const char * const afg_test_unlinks[AFG_TEST_N_UNLINKS];
/* The STRING_IDS id of @name, adding it on first use. */
gint64      afg_test_db_name         (AfgTestDb         *self,
                                      const char        *name);
void        afg_test_db_add_typed    (AfgTestDb         *self,
                                      gint64             global_tid,
                                      gint64             start,
                                      gint64             end,
                                      const char        *name,
                                      gint64             type);
/* An `op` row (or a row without type when the table has no type column). */
void        afg_test_db_add          (AfgTestDb         *self,
                                      gint64             global_tid,
                                      gint64             start,
                                      gint64             end,
                                      const char        *name);
void        afg_test_db_add_events   (AfgTestDb         *self,
                                      const AfgTestEvent *events,
                                      gsize              n_events);
/* An `op` row with PYTORCH_API.connectionId = @connection_id (or
 * AFG_TEST_NULL); returns its rowid. */
gint64      afg_test_db_add_with_connection (AfgTestDb  *self,
                                      gint64             global_tid,
                                      gint64             start,
                                      gint64             end,
                                      const char        *name,
                                      gint64             connection_id);
/* The next four need AFG_TEST_DB_NPU (or TASK_VIEW / TASK_TEXT); every
 * value may be AFG_TEST_NULL. A task is on device 0, stream 2, and its
 * globalTaskId counts from 0; returns the TASK rowid. */
gint64      afg_test_db_add_task     (AfgTestDb         *self,
                                      gint64             start,
                                      gint64             end,
                                      gint64             connection_id);
/* The same on @stream_id of @device_id. */
gint64      afg_test_db_add_task_on  (AfgTestDb         *self,
                                      gint64             start,
                                      gint64             end,
                                      gint64             connection_id,
                                      gint64             device_id,
                                      gint64             stream_id);
/* A task as afg_test_db_add_task() of type @task_type (a STRING_IDS
 * name; NULL: taskType NULL); returns its globalTaskId. */
gint64      afg_test_db_add_typed_task (AfgTestDb       *self,
                                      gint64             start,
                                      gint64             end,
                                      gint64             connection_id,
                                      const char        *task_type);
/* Rows of COMPUTE_TASK_INFO (@name NULL: name NULL), COMMUNICATION_TASK_INFO
 * and COMMUNICATION_OP (@op_name NULL: opName NULL), each table made as
 * the samples have it on first use. */
void        afg_test_db_add_compute_info (AfgTestDb     *self,
                                      gint64             global_task_id,
                                      const char        *name);
void        afg_test_db_add_comm_task_info (AfgTestDb   *self,
                                      gint64             global_task_id);
void        afg_test_db_add_collective (AfgTestDb       *self,
                                      gint64             start,
                                      gint64             end,
                                      gint64             connection_id,
                                      const char        *op_name);
/* A CONNECTION_IDS row: PYTORCH_API.connectionId @id -> TASK.connectionId
 * @connection_id. */
void        afg_test_db_link         (AfgTestDb         *self,
                                      gint64             id,
                                      gint64             connection_id);
void        afg_test_db_add_step_time (AfgTestDb        *self,
                                      gint64             id,
                                      gint64             start,
                                      gint64             end);
void        afg_test_db_begin        (AfgTestDb         *self);
void        afg_test_db_commit       (AfgTestDb         *self);
void        afg_test_db_close        (AfgTestDb         *self);
/* Copies the database and its -wal into @dir while the writer is still
 * open, so that the copy's committed rows may live only in its -wal. */
char       *afg_test_db_copy_live    (AfgTestDb         *self,
                                      const char        *dir);
/* A copy in @dir of a WAL DB of thread 1/1 whose row "in_db" [0,10) is
 * in the DB file and row "in_wal" [20,30) in its -wal only, as a writer
 * that is still running leaves it. */
char       *afg_test_live_wal_copy   (const char        *dir);
/* Loads the document at @path and builds its whole-profile tree. */
AfgTree    *afg_test_load_tree       (const char        *path,
                                      GCancellable      *cancellable,
                                      AfgLoadProgressFunc progress,
                                      gpointer           progress_data,
                                      GError           **error);
/* Closes the writer and loads the document, asserting success. */
AfgDocument *afg_test_db_load_document (AfgTestDb      *self);
/* Builds a tree, asserting success and the structural invariants. */
AfgTree    *afg_test_build           (AfgDocument       *document,
                                      const AfgScope    *scope,
                                      AfgTreeFlags       flags);
/* Closes the writer, loads, asserts success and the structural invariants. */
AfgTree    *afg_test_db_load         (AfgTestDb         *self);
/* A new DB with @events only, loaded as afg_test_db_load() does. */
AfgTree    *afg_test_load_events     (AfgTestDbFlags     flags,
                                      const AfgTestEvent *events,
                                      gsize              n_events);

/* Checks the node array against the layout documented in afg-profile.h. */
void        afg_test_check_invariants (const AfgTree *tree);
/* Every node as one `.expected` line, sorted in byte order. */
GPtrArray  *afg_test_render_tree     (const AfgTree  *tree);
/* Every frame of a diff (afg-diff-shape.h) as a line of the
 * `.diff.expected` format: the path without a thread part, then A's and
 * B's calls, total and self; not sorted. */
GPtrArray  *afg_test_render_diff     (AfgDiffShape      *diff);
/* Compares two sorted line lists and fails naming every difference. */
void        afg_test_assert_lines    (GPtrArray         *actual,
                                      GPtrArray         *expected,
                                      const char        *what);
void        afg_test_assert_tree     (const AfgTree  *tree,
                                      const char * const *expected_lines);
/* "min p50 p90 p99 max" of the frame at @path (afg_test_find_node). */
char       *afg_test_durations_of    (const AfgTree  *tree,
                                      const char        *path);
/* Index of the node reached by a ';'-separated path from a thread label. */
guint32     afg_test_find_node       (const AfgTree  *tree,
                                      const char        *path);

/* Names, sizes, mtimes and content digests of every entry in @dir. */
char       *afg_test_snapshot_dir    (const char        *dir);
void        afg_test_rm_rf           (const char        *path);
char       *afg_test_make_tmp_dir    (void);
void        afg_test_write_file      (const char        *path,
                                      const char        *data,
                                      gssize             len);

/* Runs the ascend-flamegraph executable (AFG_EXE) with LC_ALL=C; with
 * @as_nobody, as the user nobody when we are root. Returns the exit code. */
int         afg_test_run_cli         (const char * const *args,
                                      gboolean           as_nobody,
                                      char             **out_stdout,
                                      char             **out_stderr);
gboolean    afg_test_is_root         (void);
/* The first column of @sql's first row in the DB at @path, read-only. */
gint64      afg_test_query_int       (const char        *path,
                                      const char        *sql);

/* AFG_SAMPLES_DIR/NAME SUFFIX, one of the real samples or their expected files. */
char       *afg_test_sample_path     (const char        *name,
                                      const char        *suffix);
/* The non-empty lines of a text file. */
GPtrArray  *afg_test_read_lines      (const char        *path);
/* DIR/NAME's contents; fails the test when it cannot be read. */
char       *afg_test_read_output     (const char        *dir,
                                      const char        *name);
/* Exactly `ascend-flamegraph: error: …` then `ascend-flamegraph: hint: …`. */
void        afg_test_assert_error_and_hint (const char *err);
/* @dir holds exactly @name, or nothing when NULL: no temp file is left. */
void        afg_test_assert_dir_holds (const char       *dir,
                                       const char       *name);

/* Writes DIR/NAME (creating DIR) with @data. */
void        afg_test_make_file       (const char        *dir,
                                      const char        *name,
                                      const char        *data);
/* ROOT/FOLDER/ASCEND_PROFILER_OUTPUT/DB_NAME, a copy of the real @sample
 * (or a file that is no database when NULL), beside analysis.db, and
 * ROOT/FOLDER/profiler_info_{info_rank}.json unless @info_rank < 0.
 * Returns the DB's path. */
char       *afg_test_make_job_rank   (const char        *root,
                                      const char        *folder,
                                      const char        *db_name,
                                      int                info_rank,
                                      const char        *sample);

/* A DB with NPU tables where, in thread 1/1, f [0,1000) launches 10 ns of
 * device time, g [100,500) inside it 20 ns and f [200,300) inside g
 * 40 ns: a recursive name with device time at both depths. */
AfgTestDb  *afg_test_db_new_npu_recursion (void);

/* The whole-profile JSON of @path, or "error: MESSAGE", read with or
 * without the direct b-tree reader; @fast and @fallbacks count the tables
 * it read and gave up on meanwhile. */
char       *afg_test_load_json       (const char        *path,
                                      gboolean           sqlite_only,
                                      guint             *fast,
                                      guint             *fallbacks);
/* Loads @path with the direct b-tree reader (afg-table-scan.h) and with
 * SQLite only, fails unless both give the same whole-profile JSON (or the
 * same "error: MESSAGE"), and returns it; @fast and @fallbacks: the
 * tables the direct reader read whole and gave up on. */
char       *afg_test_load_both       (const char        *path,
                                      guint             *fast,
                                      guint             *fallbacks);

/* The chunk sort's order for g_qsort_with_data() (GLib's sort is stable):
 * start ascending, end descending. */
int afg_test_compare_events (gconstpointer a,
                             gconstpointer b,
                             gpointer      unused);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgTestDb, afg_test_db_free)

G_END_DECLS
