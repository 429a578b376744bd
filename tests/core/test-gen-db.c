/* SPDX-License-Identifier: MIT */
/* The test data of NPU time, steps, device kinds and collectives:
 * tools/afg-gen-db (AFG_GEN_DB) must write TASK, CONNECTION_IDS,
 * STEP_TIME, COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO and
 * COMMUNICATION_OP shaped like the real samples, ranks of one job whose
 * collectives match, and the afg-test-db helpers must write what they say. */
#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "afg-loader.h"
#include "afg-test-db.h"

#define ROWS "100000"

static char *default_db;   /* ROWS rows, no options */
static char *steps_db;     /* 60000 rows, --steps 7 --slow-step 4 --seed 5 */
static char *gen_dir;

#define JOB "--ranks 4 --steps 3 --collectives 6"
#define LATE_NS 3000000
#define LATE JOB " --late-rank 1 --late-ns 3000000"
#define JOB_ROWS "30000"

static int
run_gen (const char * const *args, char **out_stderr)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (g_getenv ("AFG_GEN_DB"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("AFG_GEN_DB"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                out_stderr, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* Generates @name in the shared directory with @options before OUT ROWS. */
static char *
generate (const char *name, const char *options, const char *rows)
{
  char *path = g_build_filename (gen_dir, name, NULL);
  g_auto(GStrv) args = g_strsplit (options, " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  for (guint i = 0; args[i] != NULL; i++)
    if (*args[i] != '\0')
      g_strv_builder_add (builder, args[i]);
  g_strv_builder_add_many (builder, path, rows, NULL);
  argv = g_strv_builder_end (builder);
  g_assert_cmpint (run_gen ((const char * const *) argv, NULL), ==, 0);
  return path;
}

static sqlite3 *
open_db (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  return db;
}

static double
query (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  double value;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_double (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

static gint64
query_int (sqlite3 *db, const char *sql)
{
  return (gint64) query (db, sql);
}

static char *
file_digest (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, len);
}

static void
test_schema (void)
{
  sqlite3 *db = open_db (default_db);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name"
                                  " IN ('TASK', 'CONNECTION_IDS', 'STEP_TIME', 'PYTORCH_API')"), ==, 4);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM sqlite_master WHERE name = 'TaskIndex'"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM pragma_table_info('TASK') WHERE name IN"
                                  " ('startNs', 'endNs', 'deviceId', 'connectionId', 'globalTaskId',"
                                  " 'streamId', 'depth')"), ==, 7);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE typeof(startNs) != 'integer'"), ==, 0);
  sqlite3_close (db);
}

/* Only launching rows carry a connectionId: op rows of main and autograd. */
static void
test_connection_column (void)
{
  sqlite3 *db = open_db (default_db);
  gint64 linked = query_int (db, "SELECT count(connectionId) FROM PYTORCH_API");

  g_assert_cmpint (linked, >, 0);
  g_assert_cmpint (linked, <, query_int (db, "SELECT count(*) FROM PYTORCH_API") / 2);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT connectionId) FROM PYTORCH_API"), ==, linked);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM PYTORCH_API WHERE connectionId NOT NULL"
                                  " AND (type != 50001 OR globalTid NOT IN (13124711390027995,"
                                  " 13124711390031316))"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM CONNECTION_IDS WHERE id NOT IN"
                                  " (SELECT connectionId FROM PYTORCH_API WHERE connectionId NOT NULL)"),
                   ==, 0);
  sqlite3_close (db);
}

/* About 0.36 tasks per row, all on device 0, on streams 0 (profiling
 * markers), 2-3 (compute) and 4-5 (collectives); a linked task starts
 * after its op ends; an op launches 1-3 tasks, or one collective. */
static void
test_tasks (void)
{
  sqlite3 *db = open_db (default_db);
  double per_row = query (db, "SELECT (SELECT count(*) FROM TASK) * 1.0 / count(*) FROM PYTORCH_API");

  g_assert_cmpfloat (per_row, >, 0.30);
  g_assert_cmpfloat (per_row, <, 0.42);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE deviceId != 0 OR streamId NOT IN"
                                  " (0, 2, 3, 4, 5) OR endNs < startNs"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE globalTaskId != rowid - 1"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK t JOIN CONNECTION_IDS c ON"
                                  " c.connectionId = t.connectionId JOIN PYTORCH_API p ON"
                                  " p.connectionId = c.id WHERE t.startNs <= CAST(p.endNs AS INTEGER)"),
                   ==, 0);
  g_assert_cmpint (query_int (db, "SELECT max(n) FROM (SELECT count(*) n FROM TASK t JOIN CONNECTION_IDS c"
                                  " ON c.connectionId = t.connectionId WHERE t.connectionId NOT IN (SELECT"
                                  " connectionId FROM COMMUNICATION_OP) GROUP BY c.id)"), ==, 3);
  sqlite3_close (db);
}

/* Unlinked tasks of both kinds, links no task matches, and c10d::allreduce_
 * rows launching nothing but collectives, on streams 4 and 5. */
static void
test_links (void)
{
  sqlite3 *db = open_db (default_db);
  double unlinked = query (db, "SELECT avg(connectionId NOT IN (SELECT connectionId FROM"
                               " CONNECTION_IDS)) FROM TASK");
  const char *allreduce_tasks = "SELECT count(*) FROM TASK t JOIN CONNECTION_IDS c ON c.connectionId ="
                                " t.connectionId JOIN PYTORCH_API p ON p.connectionId = c.id JOIN"
                                " STRING_IDS s ON s.id = p.name WHERE s.value LIKE 'c10d::allreduce_%'";
  g_autofree char *off_stream = g_strconcat (allreduce_tasks, " AND t.streamId NOT IN (4, 5)", NULL);

  g_assert_cmpfloat (unlinked, >, 0.02);
  g_assert_cmpfloat (unlinked, <, 0.09);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE connectionId = 4294967295"), >, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE connectionId != 4294967295 AND"
                                  " connectionId NOT IN (SELECT connectionId FROM CONNECTION_IDS)"), >, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM CONNECTION_IDS WHERE connectionId NOT IN"
                                  " (SELECT connectionId FROM TASK)"), >, 0);
  g_assert_cmpint (query_int (db, allreduce_tasks), >, 0);
  g_assert_cmpint (query_int (db, off_stream), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT streamId) FROM TASK"), ==, 5);
  sqlite3_close (db);
}

/* One task a step never ended. */
static void
test_null_end (void)
{
  sqlite3 *db = open_db (default_db);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE endNs IS NULL"), ==,
                   query_int (db, "SELECT count(*) FROM STEP_TIME"));
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE endNs IS NULL"), >, 0);
  sqlite3_close (db);
}

/* Every taskType and kernel name resolves; kernels (KERNEL_*, MIX_*) and
 * only they have a COMPUTE_TASK_INFO row; events and copies are there,
 * neither kernels nor communication; the samples' AI_CORE tasks without
 * a COMPUTE_TASK_INFO row too. */
static void
test_compute_info (void)
{
  sqlite3 *db = open_db (default_db);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE taskType NOT IN (SELECT id FROM STRING_IDS)"),
                   ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMPUTE_TASK_INFO WHERE name NOT IN (SELECT id FROM"
                                  " STRING_IDS) OR globalTaskId NOT IN (SELECT globalTaskId FROM TASK)"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType WHERE"
                                  " (s.value GLOB 'KERNEL_*' OR s.value GLOB 'MIX_*') != (t.globalTaskId IN"
                                  " (SELECT globalTaskId FROM COMPUTE_TASK_INFO))"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT name) FROM COMPUTE_TASK_INFO"), >, 50);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMPUTE_TASK_INFO c JOIN STRING_IDS s ON s.id = c.name"
                                  " WHERE s.value = 'aclnnMm_MatMulCommon_MatMulV2'"), >, 0);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT s.value) FROM TASK t JOIN STRING_IDS s ON s.id ="
                                  " t.taskType WHERE s.value IN ('EVENT_RECORD', 'EVENT_WAIT', 'MEMCPY_ASYNC',"
                                  " 'AI_CORE', 'PROFILING_ENABLE', 'PROFILING_DISABLE') AND t.streamId IN"
                                  " (0, 2, 3)"), ==, 6);
  sqlite3_close (db);
}

/* One op name launches the same kernels in every step. */
static void
test_kernels_follow_ops (void)
{
  sqlite3 *db = open_db (default_db);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM (SELECT p.name FROM PYTORCH_API p JOIN CONNECTION_IDS c"
                                  " ON c.id = p.connectionId JOIN TASK t ON t.connectionId = c.connectionId JOIN"
                                  " COMPUTE_TASK_INFO k ON k.globalTaskId = t.globalTaskId GROUP BY p.name"
                                  " HAVING count(DISTINCT k.name) > 3)"), ==, 0);
  sqlite3_close (db);
}

/* A compute stream runs one task at a time and idles between them. */
static void
test_streams (void)
{
  sqlite3 *db = open_db (default_db);
  const char *gaps = "WITH s AS (SELECT startNs, lag(coalesce(endNs, startNs + 1000)) OVER (PARTITION BY"
                     " streamId ORDER BY startNs, globalTaskId) AS prev FROM TASK WHERE streamId IN (2, 3))";
  g_autofree char *overlaps = g_strconcat (gaps, " SELECT count(*) FROM s WHERE startNs < prev", NULL);
  g_autofree char *idle = g_strconcat (gaps, " SELECT total(max(startNs - prev, 0)) FROM s", NULL);
  double span = query (db, "SELECT max(endNs) - min(startNs) FROM TASK WHERE streamId = 2");

  g_assert_cmpint (query_int (db, overlaps), ==, 0);
  g_assert_cmpfloat (query (db, idle), >, span / 5);
  sqlite3_close (db);
}

/* Each COMMUNICATION_OP row: its connectionId links it to one
 * c10d::allreduce_ row; its tasks are one AI_CORE container on stream 4
 * (data-parallel) or 5 (tensor-parallel) around the op, and Notify Wait,
 * Write Value and SDMA tasks in COMMUNICATION_TASK_INFO named by its
 * opName, spanning it exactly: 74 of them in the group of 8 ranks (7
 * peers), 26 in the pair. */
static void
test_collectives (void)
{
  sqlite3 *db = open_db (default_db);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMMUNICATION_OP"), ==,
                   8 * query_int (db, "SELECT count(*) FROM STEP_TIME"));
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMMUNICATION_OP o JOIN CONNECTION_IDS c ON"
                                  " c.connectionId = o.connectionId JOIN PYTORCH_API p ON p.connectionId = c.id"
                                  " JOIN STRING_IDS s ON s.id = p.name WHERE s.value GLOB 'c10d::allreduce_*'"
                                  " AND CAST(p.endNs AS INTEGER) < o.startNs"), ==,
                   query_int (db, "SELECT count(*) FROM COMMUNICATION_OP"));
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMMUNICATION_OP o WHERE (SELECT count(*) FROM TASK t"
                                  " JOIN STRING_IDS s ON s.id = t.taskType WHERE t.connectionId = o.connectionId"
                                  " AND s.value = 'AI_CORE' AND t.startNs < o.startNs AND t.endNs > o.endNs) != 1"),
                   ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM (SELECT o.opId, o.groupName, o.startNs, o.endNs,"
                                  " count(*) n, min(t.startNs) first, max(t.endNs) last, max(t.streamId) stream,"
                                  " sum(s.value NOT IN ('Notify Wait', 'Write Value', 'SDMA')) odd"
                                  " FROM COMMUNICATION_OP o JOIN TASK t ON t.connectionId = o.connectionId"
                                  " JOIN COMMUNICATION_TASK_INFO i ON i.globalTaskId = t.globalTaskId AND"
                                  " i.name = o.opName AND i.opId = o.opId JOIN STRING_IDS s ON s.id = t.taskType"
                                  " GROUP BY o.opId) WHERE first = startNs AND last = endNs AND odd = 0 AND"
                                  " ((n = 74 AND stream = 4) OR (n = 26 AND stream = 5))"), ==,
                   query_int (db, "SELECT count(*) FROM COMMUNICATION_OP"));
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMMUNICATION_TASK_INFO"), ==,
                   query_int (db, "SELECT 74 * (SELECT count(*) FROM COMMUNICATION_OP WHERE opName IN (SELECT id"
                                  " FROM STRING_IDS WHERE value GLOB 'hcom_allReduce__210_*'))"
                                  " + 26 * (SELECT count(*) FROM COMMUNICATION_OP WHERE opName IN (SELECT id"
                                  " FROM STRING_IDS WHERE value GLOB 'hcom_allReduce__300_*'))"));
  sqlite3_close (db);
}

/* Generates rank @rank of the job with @options into @name, unless an
 * earlier test did: one name, one set of options. */
static char *
generate_rank (const char *name, const char *options, int rank)
{
  g_autofree char *all = g_strdup_printf ("%s --rank %d", options, rank);
  char *path = g_build_filename (gen_dir, name, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  g_free (path);
  return generate (name, all, JOB_ROWS);
}

/* Runs @sql on @a with @b (unless NULL) attached as "b". */
static gint64
query_pair (const char *a, const char *b, const char *sql)
{
  sqlite3 *db = open_db (a);
  g_autofree char *attach = g_strdup_printf ("ATTACH '%s' AS b", b);
  gint64 value;

  if (b != NULL)
    g_assert_cmpint (sqlite3_exec (db, attach, NULL, NULL, NULL), ==, SQLITE_OK);
  value = query_int (db, sql);
  sqlite3_close (db);
  return value;
}

/* The collectives of @a and of @b (attached) by group and opName string,
 * with both durations. */
#define PAIRS "WITH a AS (SELECT g.value grp, n.value op, o.endNs - o.startNs d FROM main.COMMUNICATION_OP o" \
  " JOIN main.STRING_IDS g ON g.id = o.groupName JOIN main.STRING_IDS n ON n.id = o.opName)," \
  " b AS (SELECT g.value grp, n.value op, o.endNs - o.startNs d FROM b.COMMUNICATION_OP o" \
  " JOIN b.STRING_IDS g ON g.id = o.groupName JOIN b.STRING_IDS n ON n.id = o.opName)," \
  " p AS (SELECT a.grp, a.op, a.d ad, b.d bd FROM a JOIN b USING (grp, op)) "

/* Ranks of one job share their collectives: the data-parallel ones on all
 * ranks, the tensor-parallel ones in pairs (0-1, 2-3) under their own
 * group name; all with equal durations when nobody is late. */
static void
test_job_matches (void)
{
  g_autofree char *r0 = generate_rank ("job-0.db", JOB, 0);
  g_autofree char *r1 = generate_rank ("job-1.db", JOB, 1);
  g_autofree char *r2 = generate_rank ("job-2.db", JOB, 2);
  gint64 n = query_pair (r0, NULL, "SELECT count(*) FROM COMMUNICATION_OP");

  g_assert_cmpint (n, ==, 18);
  g_assert_cmpint (query_pair (r0, r1, PAIRS "SELECT count(*) FROM p"), ==, n);
  g_assert_cmpint (query_pair (r0, r1, PAIRS "SELECT count(*) FROM p WHERE ad != bd"), ==, 0);
  g_assert_cmpint (query_pair (r0, r1, "SELECT count(DISTINCT groupName) FROM COMMUNICATION_OP"), ==, 2);
  g_assert_cmpint (query_pair (r0, r2, PAIRS "SELECT count(*) FROM p"), ==, 9);
  g_assert_cmpint (query_pair (r0, r2, PAIRS "SELECT count(*) FROM p WHERE ad != bd OR grp NOT GLOB '*_60000_*'"),
                   ==, 0);
  g_assert_cmpint (query_pair (r0, r2, "SELECT count(*) FROM main.PYTORCH_API a JOIN b.PYTORCH_API b ON"
                                       " a.rowid = b.rowid WHERE a.startNs IS b.startNs AND a.endNs = b.endNs AND"
                                       " a.name = b.name AND a.globalTid = b.globalTid"), ==,
                   query_pair (r2, NULL, "SELECT count(*) FROM PYTORCH_API"));
  g_assert_cmpint (query_pair (r0, r2, "SELECT (SELECT deviceId FROM main.TASK LIMIT 1) * 10 + (SELECT deviceId"
                                       " FROM b.TASK LIMIT 1)"), ==, 2);
  g_assert_cmpint (query_pair (r0, r2, "SELECT count(*) FROM main.TASK a JOIN b.TASK b ON a.rowid = b.rowid"
                                       " WHERE a.startNs = b.startNs AND a.taskType = b.taskType"), <,
                   query_pair (r2, NULL, "SELECT count(*) FROM TASK"));
}

/* Rank 1 late by LATE_NS: on ranks 0 and 2 every data-parallel collective
 * lasts exactly LATE_NS longer than on rank 1, on rank 0 (rank 1's pair)
 * the tensor-parallel ones too, on rank 2 (pair 2-3) not; rank 1's are
 * the shortest. */
static void
test_job_late (void)
{
  g_autofree char *r0 = generate_rank ("late-0.db", LATE, 0);
  g_autofree char *r1 = generate_rank ("late-1.db", LATE, 1);
  g_autofree char *r2 = generate_rank ("late-2.db", LATE, 2);
  g_autofree char *balanced = generate_rank ("job-2.db", JOB, 2);
  g_autofree char *late_dp = g_strdup_printf (PAIRS "SELECT count(*) FROM p WHERE ad - bd = %d AND grp GLOB"
                                              " '*_60000_*'", LATE_NS);
  g_autofree char *late_all = g_strdup_printf (PAIRS "SELECT count(*) FROM p WHERE ad - bd = %d", LATE_NS);

  g_assert_cmpint (query_pair (r0, r1, late_all), ==, 18);
  g_assert_cmpint (query_pair (r2, r1, late_dp), ==, 9);
  g_assert_cmpint (query_pair (r2, r1, PAIRS "SELECT count(*) FROM p"), ==, 9);
  g_assert_cmpint (query_pair (r2, balanced, PAIRS "SELECT count(*) FROM p WHERE ad = bd AND grp NOT GLOB"
                                             " '*_60000_*'"), ==, 9);
  g_assert_cmpint (query_pair (r2, balanced, late_dp), ==, 9);
  g_assert_cmpint (query_pair (r0, r1, "SELECT count(*) FROM main.COMMUNICATION_OP a JOIN b.COMMUNICATION_OP b"
                                      " USING (opId) WHERE a.waitNs - b.waitNs = 3000000"), ==, 18);
}

/* A rank that misses one collective, and one without COMMUNICATION_OP. */
static void
test_job_gaps (void)
{
  g_autofree char *r0 = generate_rank ("job-0.db", JOB, 0);
  g_autofree char *dropped = generate_rank ("gaps-1.db", JOB " --drop-collective 4", 1);
  g_autofree char *no_op = generate_rank ("gaps-3.db", JOB " --no-comm-op", 3);
  sqlite3 *db = open_db (no_op);

  g_assert_cmpint (query_pair (r0, dropped, PAIRS "SELECT count(*) FROM p"), ==, 17);
  g_assert_cmpint (query_pair (r0, dropped, PAIRS "SELECT count(*) FROM a WHERE op NOT IN (SELECT op FROM b)"
                                            " AND a.op = (SELECT n.value FROM COMMUNICATION_OP o JOIN STRING_IDS n"
                                            " ON n.id = o.opName WHERE o.opId = 5)"), ==, 1);
  g_assert_cmpint (query_pair (r0, dropped, "SELECT count(*) FROM b.COMMUNICATION_OP WHERE opId = 5"), ==, 0);
  g_assert_cmpint (query_pair (r0, dropped, "SELECT (SELECT count(*) FROM main.COMMUNICATION_TASK_INFO)"
                                            " - (SELECT count(*) FROM b.COMMUNICATION_TASK_INFO)"), >, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM sqlite_master WHERE name = 'COMMUNICATION_OP'"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM COMMUNICATION_TASK_INFO"), >, 0);
  sqlite3_close (db);
}

/* STEP_TIME row N is the ProfilerStep#N row, to the nanosecond. */
static void
assert_steps_match (sqlite3 *db, gint64 n_steps)
{
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM STEP_TIME"), ==, n_steps);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM STEP_TIME s JOIN STRING_IDS n ON n.value ="
                                  " 'ProfilerStep#' || s.id JOIN PYTORCH_API p ON p.name = n.id AND"
                                  " CAST(p.startNs AS INTEGER) = s.startNs AND CAST(p.endNs AS INTEGER)"
                                  " = s.endNs"), ==, n_steps);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM PYTORCH_API p JOIN STRING_IDS n ON p.name = n.id"
                                  " WHERE n.value LIKE 'ProfilerStep#%'"), ==, n_steps);
  g_assert_cmpint (query_int (db, "SELECT max(id) - min(id) + 1 FROM STEP_TIME"), ==, n_steps);
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Asserts that step @slow is the slowest, at least 2.5 times the median,
 * and that the other steps differ from each other but by less than 1.5x. */
static void
assert_slow_step (sqlite3 *db, gint64 slow)
{
  sqlite3_stmt *stmt = NULL;
  g_autoptr(GArray) others = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 slow_ns = 0, median;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT id, endNs - startNs FROM STEP_TIME", -1, &stmt,
                                       NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 ns = sqlite3_column_int64 (stmt, 1);

      if (sqlite3_column_int64 (stmt, 0) == slow)
        slow_ns = ns;
      else
        g_array_append_val (others, ns);
    }
  sqlite3_finalize (stmt);
  g_assert_cmpuint (others->len, >=, 2);
  g_array_sort (others, compare_gint64);
  median = g_array_index (others, gint64, others->len / 2);
  g_assert_cmpint (slow_ns, >, median * 5 / 2);
  g_assert_cmpint (g_array_index (others, gint64, others->len - 1), <, slow_ns);
  g_assert_cmpint (g_array_index (others, gint64, others->len - 1), <,
                   g_array_index (others, gint64, 0) * 3 / 2);
  g_assert_cmpint (g_array_index (others, gint64, others->len - 1), >,
                   g_array_index (others, gint64, 0) * 21 / 20);
}

static void
test_steps (void)
{
  sqlite3 *db = open_db (steps_db);
  gint64 rows = query_int (db, "SELECT count(*) FROM PYTORCH_API");

  assert_steps_match (db, 7);
  assert_slow_step (db, 4);
  g_assert_cmpint (rows, >, 60000 * 7 / 10);
  g_assert_cmpint (rows, <, 60000 * 13 / 10);
  sqlite3_close (db);
}

/* Without options the middle step is the slow one. */
static void
test_default_steps (void)
{
  sqlite3 *db = open_db (default_db);
  gint64 n_steps = query_int (db, "SELECT count(*) FROM STEP_TIME");

  g_assert_cmpint (n_steps, ==, 3);
  assert_steps_match (db, n_steps);
  assert_slow_step (db, n_steps / 2);
  sqlite3_close (db);
}

static AfgTree *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  AfgTree *tree = afg_test_load_tree (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  afg_test_check_invariants (tree);
  return tree;
}

/* --no-npu: no device tables, no connectionId, and the same host tree. */
static void
test_no_npu (void)
{
  g_autofree char *path = generate ("no-npu.db", "--no-npu", ROWS);
  sqlite3 *db = open_db (path);
  g_autoptr(AfgTree) with = load (default_db);
  g_autoptr(AfgTree) without = load (path);
  g_autoptr(GPtrArray) expected = afg_test_render_tree (with);
  g_autoptr(GPtrArray) actual = afg_test_render_tree (without);

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM sqlite_master WHERE name IN ('TASK',"
                                  " 'CONNECTION_IDS', 'COMMUNICATION_OP', 'COMPUTE_TASK_INFO',"
                                  " 'COMMUNICATION_TASK_INFO')"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(connectionId) FROM PYTORCH_API"), ==, 0);
  assert_steps_match (db, 3);
  sqlite3_close (db);
  afg_test_assert_lines (actual, expected, "--no-npu tree");
  g_assert_cmpmem (afg_tree_get_stats (with), sizeof (AfgStats),
                   afg_tree_get_stats (without), sizeof (AfgStats));
}

static void
test_deterministic (void)
{
  g_autofree char *again = generate ("again.db", "", ROWS);
  g_autofree char *seeded = generate ("seeded.db", "--seed 7", ROWS);
  g_autofree char *seeded_again = generate ("seeded-again.db", "--seed 7", ROWS);
  g_autofree char *rank = generate_rank ("rank-3.db", LATE, 3);
  g_autofree char *rank_again = generate_rank ("rank-3-again.db", LATE, 3);
  g_autofree char *a = file_digest (default_db);
  g_autofree char *b = file_digest (again);
  g_autofree char *c = file_digest (seeded);
  g_autofree char *d = file_digest (seeded_again);
  g_autofree char *e = file_digest (rank);
  g_autofree char *f = file_digest (rank_again);

  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (c, ==, d);
  g_assert_cmpstr (a, !=, c);
  g_assert_cmpstr (e, ==, f);
}

static void
test_usage (void)
{
  static const char * const no_args[] = { NULL };
  static const char * const zero_rows[] = { "/nonexistent/x.db", "0", NULL };
  static const char * const bad_option[] = { "--bogus", "/nonexistent/x.db", "10", NULL };
  static const char * const bad_steps[] = { "--steps", "-3", "/nonexistent/x.db", "10", NULL };
  static const char * const no_steps[] = { "--steps", "0", "/nonexistent/x.db", "10", NULL };
  static const char * const minus_one[] = { "--steps", "-1", "/nonexistent/x.db", "10", NULL };
  static const char * const bad_rank[] = { "--ranks", "4", "--rank", "4", "/nonexistent/x.db", "10", NULL };
  static const char * const bad_tp[] = { "--ranks", "6", "--tp", "4", "/nonexistent/x.db", "10", NULL };
  static const char * const late_nobody[] = { "--late-ns", "5", "/nonexistent/x.db", "10", NULL };
  static const char * const late_outside[] = { "--late-rank", "8", "/nonexistent/x.db", "10", NULL };
  static const char * const too_many[] = { "--collectives", "65", "/nonexistent/x.db", "10", NULL };
  const char * const *cases[] = { no_args, zero_rows, bad_option, bad_steps, no_steps, minus_one, bad_rank, bad_tp,
                                  late_nobody, late_outside, too_many };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_assert_cmpint (run_gen (cases[i], &err), ==, 2);
      g_assert_nonnull (strstr (err, "usage: "));
      g_assert_nonnull (strstr (err, "[--no-npu] OUTPUT.db ROWS"));
    }
}

/* The helpers write what they are told, NULLs included. */
static void
test_helpers (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NPU);
  sqlite3 *db;

  g_assert_cmpint (afg_test_db_add_with_connection (t, GTID (1, 1), 0, 100, "launch", 7), ==, 1);
  g_assert_cmpint (afg_test_db_add_with_connection (t, GTID (1, 1), 10, 20, "inner", AFG_TEST_NULL), ==, 2);
  g_assert_cmpint (afg_test_db_add_task (t, 150, 170, 70), ==, 1);
  g_assert_cmpint (afg_test_db_add_task (t, 180, AFG_TEST_NULL, AFG_TEST_NO_LINK), ==, 2);
  g_assert_cmpint (afg_test_db_add_task_on (t, AFG_TEST_NULL, 5, -1, 1, 9), ==, 3);
  afg_test_db_link (t, 7, 70);
  afg_test_db_link (t, 8, AFG_TEST_NULL);
  afg_test_db_add_step_time (t, 3, 0, 200);
  afg_test_db_add_step_time (t, 4, AFG_TEST_NULL, 300);
  afg_test_db_close (t);
  db = open_db (t->path);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM PYTORCH_API WHERE connectionId = 7 AND type ="
                                  " 50001 AND startNs = '0' AND endNs = '100'"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM PYTORCH_API WHERE connectionId IS NULL"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE startNs = 150 AND endNs = 170 AND"
                                  " connectionId = 70 AND deviceId = 0 AND streamId = 2 AND globalTaskId = 0"),
                   ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE endNs IS NULL AND connectionId ="
                                  " 4294967295 AND globalTaskId = 1"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE startNs IS NULL AND connectionId = -1"
                                  " AND deviceId = 1 AND streamId = 9 AND globalTaskId = 2"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM CONNECTION_IDS WHERE connectionId IS NULL"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT total(id) FROM STEP_TIME WHERE startNs IS NULL"), ==, 4);
  sqlite3_close (db);
  afg_test_db_free (t);
}

static void
test_helper_shapes (void)
{
  AfgTestDb *view = afg_test_db_new (AFG_TEST_DB_TASK_VIEW);
  AfgTestDb *text = afg_test_db_new (AFG_TEST_DB_TASK_TEXT);
  sqlite3 *db;

  afg_test_db_add_task (view, 1, 2, 3);
  afg_test_db_add_task (text, 1, 2, 3);
  afg_test_db_close (view);
  afg_test_db_close (text);
  db = open_db (view->path);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM sqlite_master WHERE name = 'TASK' AND type = 'view'"),
                   ==, 1);
  g_assert_cmpint (query_int (db, "SELECT connectionId FROM TASK"), ==, 3);
  sqlite3_close (db);
  db = open_db (text->path);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM TASK WHERE typeof(startNs) = 'text'"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM STEP_TIME"), ==, 0);
  sqlite3_close (db);
  afg_test_db_free (view);
  afg_test_db_free (text);
}

/* Device tables and connectionIds do not change what the host tree is. */
static void
test_helpers_keep_host_tree (void)
{
  AfgTestDb *plain = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  AfgTestDb *npu = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgTree) a = NULL;
  g_autoptr(AfgTree) b = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) actual = NULL;

  afg_test_db_add (plain, GTID (1, 1), 0, 100, "A");
  afg_test_db_add (plain, GTID (1, 1), 10, 50, "B");
  afg_test_db_add_with_connection (npu, GTID (1, 1), 0, 100, "A", AFG_TEST_NULL);
  afg_test_db_add_with_connection (npu, GTID (1, 1), 10, 50, "B", 1);
  afg_test_db_link (npu, 1, 11);
  afg_test_db_add_task (npu, 60, 90, 11);
  afg_test_db_add_step_time (npu, 1, 0, 100);
  a = afg_test_db_load (plain);
  b = afg_test_db_load (npu);
  expected = afg_test_render_tree (a);
  actual = afg_test_render_tree (b);
  g_assert_cmpuint (expected->len, ==, 3);
  afg_test_assert_lines (actual, expected, "host tree");
  afg_test_db_free (plain);
  afg_test_db_free (npu);
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  gen_dir = afg_test_make_tmp_dir ();
  default_db = generate ("default.db", "", ROWS);
  steps_db = generate ("steps.db", "--steps 7 --slow-step 4 --seed 5", "60000");
  g_test_add_func ("/gen-db/schema", test_schema);
  g_test_add_func ("/gen-db/connection-column", test_connection_column);
  g_test_add_func ("/gen-db/tasks", test_tasks);
  g_test_add_func ("/gen-db/links", test_links);
  g_test_add_func ("/gen-db/null-end", test_null_end);
  g_test_add_func ("/gen-db/compute-info", test_compute_info);
  g_test_add_func ("/gen-db/kernels-follow-ops", test_kernels_follow_ops);
  g_test_add_func ("/gen-db/streams", test_streams);
  g_test_add_func ("/gen-db/collectives", test_collectives);
  g_test_add_func ("/gen-db/job-matches", test_job_matches);
  g_test_add_func ("/gen-db/job-late", test_job_late);
  g_test_add_func ("/gen-db/job-gaps", test_job_gaps);
  g_test_add_func ("/gen-db/steps", test_steps);
  g_test_add_func ("/gen-db/default-steps", test_default_steps);
  g_test_add_func ("/gen-db/no-npu", test_no_npu);
  g_test_add_func ("/gen-db/deterministic", test_deterministic);
  g_test_add_func ("/gen-db/usage", test_usage);
  g_test_add_func ("/test-db/npu-helpers", test_helpers);
  g_test_add_func ("/test-db/npu-shapes", test_helper_shapes);
  g_test_add_func ("/test-db/npu-keeps-host-tree", test_helpers_keep_host_tree);
  rc = g_test_run ();
  afg_test_rm_rf (gen_dir);
  g_free (gen_dir);
  g_free (default_db);
  g_free (steps_db);
  return rc;
}
