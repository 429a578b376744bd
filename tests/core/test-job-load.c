/* SPDX-License-Identifier: MIT */
/* A job's ranks read in parallel (afg-job-load.c), the window's
 * "All ranks" (afg-merged-tree.c) and Cancel. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "afg-cores.h"
#include "afg-function-table.h"
#include "afg-job-load.h"
#include "afg-job-merge.h"
#include "afg-loader.h"
#include "afg-merged-tree.h"
#include "afg-path-tree.h"
#include "afg-test-db.h"

#define SAMPLE0 "ascend_pytorch_profiler_level0_rank0"
#define SAMPLE1 "ascend_pytorch_profiler_level1_rank0"

/* @n ranks in the real layout, the two real samples taking turns. */
static char *
make_job (guint n)
{
  char *root = afg_test_make_tmp_dir ();

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *folder = g_strdup_printf ("rank%u_ascend_pt", i);
      g_autofree char *db = g_strdup_printf ("ascend_pytorch_profiler_%u.db", i);

      g_free (afg_test_make_job_rank (root, folder, db, (int) i, i % 2 ? SAMPLE1 : SAMPLE0));
    }
  return root;
}

static AfgJobLoad *
new_load (const char *root, AfgJobTreeFunc use_tree, gpointer data)
{
  AfgJobLoadOptions options = { AFG_TREE_FLAGS_NONE, FALSE, 0, 0, use_tree, data };
  g_autoptr(GError) error = NULL;
  AfgJobFolder *folder = afg_job_folder_discover (root, &error);

  g_assert_no_error (error);
  return afg_job_load_new (root, folder, &options);
}

typedef struct {
  GMutex         lock;
  AfgMergedTree *merged;
  GCancellable  *cancel;
  guint          calls;
  gint64         device[AFG_PATH_DEVICE_COLUMNS];  /* the ranks' roots' device columns summed */
} Hook;

static gboolean
merge_tree (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  Hook *hook = data;

  g_mutex_lock (&hook->lock);
  afg_merged_tree_add (hook->merged, tree);
  for (guint k = 0; k < afg_path_tree_device_columns (tree); k++)
    hook->device[k] += afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS + k, AFG_TREE_ROOT);
  hook->calls++;
  g_mutex_unlock (&hook->lock);
  if (hook->cancel != NULL)
    g_cancellable_cancel (hook->cancel);
  return TRUE;
}

static gint64
summed_frame_ns (AfgJobLoad *load, const char *name)
{
  gint64 sum = 0;

  for (guint i = 0; i < afg_job_load_get_n_ranks (load); i++)
    sum += afg_rank_summary_frame_ns (afg_job_load_get_summaries (load)[i], name);
  return sum;
}

/* What afg_test_check_invariants asks of a profile, but for the thread's
 * label: not a pid/tid but the name of the merge. */
static void
check_one_thread (const AfgTree *tree)
{
  gint64 *children_ns = g_new0 (gint64, afg_tree_get_n_nodes (tree));
  gint64 *children_calls = g_new0 (gint64, afg_tree_get_n_nodes (tree));

  g_assert_cmpuint (afg_tree_get_n_threads (tree), ==, 1);
  g_assert_cmpuint (afg_tree_get_thread (tree, 0)->node, ==, 1);
  g_assert_cmpstr (afg_tree_get_thread (tree, 0)->label, ==, afg_tree_get_node_name (tree, 1));
  for (guint32 n = 1; n < afg_tree_get_n_nodes (tree); n++)
    {
      const AfgNode *node = afg_tree_get_node (tree, n);
      const AfgNode *parent = afg_tree_get_node (tree, node->parent);

      g_assert_cmpuint (node->depth, ==, parent->depth + 1);
      g_assert_cmpuint (node->thread, ==, 0);
      g_assert_cmpuint (n, >=, parent->first_child);
      g_assert_cmpuint (n, <, parent->first_child + parent->n_children);
      children_ns[node->parent] += afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, n);
      children_calls[node->parent] += afg_tree_get_value (tree, AFG_COLUMN_CALLS, n);
    }
  for (guint32 n = 0; n < afg_tree_get_n_nodes (tree); n++)
    {
      gint64 total = afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, n);

      if (n <= 1)
        {
          g_assert_cmpint (total, ==, children_ns[n]);
          g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_CALLS, n), ==, children_calls[n]);
        }
      g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_SELF_NS, n), ==, n <= 1 ? 0 : MAX (0, total - children_ns[n]));
    }
  g_free (children_ns);
  g_free (children_calls);
}

/* "All ranks": one thread, its root the sum of the ranks' totals, and
 * every function's total the sum of the ranks' (addresses merged, as
 * ranks.json's frames). */
static void
test_merged (void)
{
  g_autofree char *root = make_job (2);
  Hook hook = { .merged = afg_merged_tree_new () };
  g_autoptr(AfgJobLoad) load = new_load (root, merge_tree, &hook);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgFunctionTable) table = NULL;
  AfgRankSummary * const *summaries;

  g_mutex_init (&hook.lock);
  afg_job_load_run (load, NULL);
  summaries = afg_job_load_get_summaries (load);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpint (afg_job_load_get_state (load, i, NULL, NULL), ==, AFG_RANK_STATE_DONE);
      g_assert_null (summaries[i]->error);
    }
  g_assert_cmpuint (hook.calls, ==, 2);
  tree = afg_merged_tree_build (hook.merged, root);
  check_one_thread (tree);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==,
                   summaries[0]->host_ns + summaries[1]->host_ns);
  /* Both samples have device time by kind: so has "All ranks", the root
   * and the thread each the sum of the ranks' roots. */
  g_assert_cmpuint (afg_path_tree_device_columns (tree), ==, AFG_PATH_DEVICE_COLUMNS);
  g_assert_cmpint (hook.device[0], >, 0);
  for (guint k = 0; k < AFG_PATH_DEVICE_COLUMNS; k++)
    for (guint32 n = 0; n <= 1; n++)
      g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS + k, n), ==, hook.device[k]);
  table = afg_function_table_new (tree);
  g_assert_cmpuint (afg_function_table_get_n_functions (table), >=, g_hash_table_size (summaries[0]->frames));
  g_assert_cmpuint (afg_function_table_get_n_functions (table), >=, g_hash_table_size (summaries[1]->frames));
  for (guint i = 0; i < afg_function_table_get_n_functions (table); i++)
    {
      const char *name = afg_function_table_get_name (table, i);

      g_assert_cmpint (afg_function_table_get (table, i)->total_ns, ==, summed_frame_ns (load, name));
    }
  afg_merged_tree_free (hook.merged);
  g_mutex_clear (&hook.lock);
  afg_test_rm_rf (root);
}

/* The rank's tree as the command line's --npu-idle gives it. */
static gint64
idle_root_ns (const char *db)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope;

  g_assert_no_error (error);
  g_assert_true (afg_scope_init_request (&scope, document, FALSE, 0, 0, TRUE, &error));
  tree = afg_tree_build (document, &scope, AFG_TREE_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  return afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT);
}

/* "All ranks" in the NPU-idle instants: every rank read again in them,
 * the root the sum of the ranks' idle trees' roots; a rank that cannot be
 * read is left out and counted; with none read, the first one's reason. */
static void
test_merge_idle (void)
{
  g_autofree char *root = make_job (2);
  g_autofree char *bad = afg_test_make_job_rank (root, "rank2_ascend_pt", "ascend_pytorch_profiler_2.db", 2, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgJobFolder) folder = afg_job_folder_discover (root, &error);
  g_autoptr(AfgJobFolder) only_bad = afg_job_folder_new_single (bad, root);
  g_autoptr(AfgTree) whole = NULL;
  g_autoptr(AfgTree) idle = NULL;
  g_autoptr(AfgTree) none = NULL;
  AfgJobMergeCounts counts;
  gint64 want = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)
    want += idle_root_ns (((AfgJobRank *) g_ptr_array_index (folder->ranks, i))->path);
  idle = afg_job_merge_ranks (root, folder, AFG_TREE_FLAGS_NONE, FALSE, 0, 0, TRUE, &counts, NULL, &error);
  g_assert_no_error (error);
  check_one_thread (idle);
  g_assert_cmpint (want, >, 0);
  g_assert_cmpint (afg_tree_get_value (idle, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, want);
  g_assert_cmpuint (counts.read, ==, 3);
  g_assert_cmpuint (counts.merged, ==, 2);
  g_assert_cmpuint (counts.failed, ==, 1);
  /* The scope is what makes it: whole, the ranks hold more. */
  whole = afg_job_merge_ranks (root, folder, AFG_TREE_FLAGS_NONE, FALSE, 0, 0, FALSE, &counts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (afg_tree_get_value (whole, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), >, want);
  none = afg_job_merge_ranks (root, only_bad, AFG_TREE_FLAGS_NONE, FALSE, 0, 0, TRUE, &counts, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NO_RANK_READ);
  g_assert_true (g_str_has_prefix (error->message, "rank 2: "));
  g_assert_cmpuint (counts.failed, ==, 1);
  afg_test_rm_rf (root);
}

/* Device time merged node by node, and none once a profile without it
 * is added: a part of the ranks' would pass for all of it. */
static void
test_merged_device (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgTree) npu = NULL;
  g_autoptr(AfgTree) host = NULL;
  g_autoptr(AfgTree) merged = NULL;
  g_autoptr(AfgTree) mixed = NULL;
  g_autoptr(AfgMergedTree) sum = afg_merged_tree_new ();
  guint32 g;

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", 1);
  afg_test_db_add_with_connection (db, GTID (1, 1), 100, 500, "g", 2);
  afg_test_db_link (db, 1, 101);
  afg_test_db_link (db, 2, 102);
  afg_test_db_add_task (db, 2000, 2050, 101);
  afg_test_db_add_task (db, 2100, 2130, 102);
  npu = afg_test_db_load (db);
  g_assert_cmpuint (afg_path_tree_device_columns (npu), >=, 3);
  afg_merged_tree_add (sum, npu);
  afg_merged_tree_add (sum, npu);
  merged = afg_merged_tree_build (sum, "job");
  check_one_thread (merged);
  g_assert_cmpuint (afg_path_tree_device_columns (merged), ==, afg_path_tree_device_columns (npu));
  g = afg_test_find_node (merged, "All ranks;f;g");
  g_assert_cmpint (afg_tree_get_value (merged, AFG_COLUMN_NPU_SELF_NS, g), ==, 60);
  g_assert_cmpint (afg_tree_get_value (merged, AFG_COLUMN_NPU_TASKS, g), ==, 2);
  g_assert_cmpint (afg_tree_get_value (merged, AFG_COLUMN_NPU_TOTAL_NS, afg_test_find_node (merged, "All ranks;f")), ==, 2 * 80);
  g_assert_cmpint (afg_tree_get_value (merged, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 2 * 80);
  g_assert_cmpint (afg_tree_get_value (merged, AFG_COLUMN_NPU_TOTAL_NS, 1), ==, 2 * 80);

  host = afg_test_load_events (AFG_TEST_DB_DEFAULT, (AfgTestEvent[]) { { GTID (1, 1), 0, 10, "f" } }, 1);
  afg_merged_tree_add (sum, host);
  mixed = afg_merged_tree_build (sum, "job");
  g_assert_cmpuint (afg_path_tree_device_columns (mixed), ==, 0);
  /* The weight menu's reason: "No NPU time: 1 of the 3 ranks read has none". */
  g_assert_cmpstr (afg_document_get_npu_warning (afg_tree_get_document (mixed)), ==, "1 of the 3 ranks read has none");
  g_assert_null (afg_document_get_npu_warning (afg_tree_get_document (merged)));
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Each (kind, name)'s count, ns and exposed ns over @tree's leaves,
 * "kind\tname\tcount\tns\texposed" lines sorted. */
static char *
kernel_sums (const AfgTree *tree)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  for (guint32 node = 0; node < afg_tree_get_n_nodes (tree); node++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, node, &n);

      for (guint i = 0; i < n; i++)
        {
          char *name = g_strdup_printf ("%u\t%s", k[i].kind, afg_document_get_string (afg_tree_get_document (tree),
                                                                                     k[i].name));
          gint64 *sum = g_hash_table_lookup (sums, name);

          if (sum == NULL)
            g_hash_table_insert (sums, name, sum = g_new0 (gint64, 3));
          else
            g_free (name);
          sum[0] += k[i].count;
          sum[1] += k[i].ns;
          sum[2] += k[i].exposed_ns;
        }
    }
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const gint64 *sum = value;

      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               (const char *) key, sum[0], sum[1], sum[2]));
    }
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

/* The kernel leaves of All ranks: each rank's, under the merged frame,
 * those of one kind and name added up (a sample twice: twice its sums,
 * as many distinct leaves as it has). */
static void
test_merged_kernels (void)
{
  g_autofree char *path = afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", ".db");
  g_autoptr(AfgTree) rank = afg_test_load_tree (path, NULL, NULL, NULL, NULL);
  g_autoptr(AfgMergedTree) sum = afg_merged_tree_new ();
  g_autoptr(AfgTree) once = NULL;
  g_autoptr(AfgTree) twice = NULL;
  g_autofree char *rank_sums = kernel_sums (rank);
  g_autofree char *once_sums = NULL;
  g_autofree char *twice_sums = NULL;
  g_auto(GStrv) rank_lines = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpstr (rank_sums, !=, "");
  afg_merged_tree_add (sum, rank);
  once = afg_merged_tree_build (sum, "job");
  once_sums = kernel_sums (once);
  g_assert_cmpstr (once_sums, ==, rank_sums);
  afg_merged_tree_add (sum, rank);
  twice = afg_merged_tree_build (sum, "job");
  twice_sums = kernel_sums (twice);
  rank_lines = g_strsplit (rank_sums, "\n", -1);
  lines = g_strsplit (twice_sums, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, g_strv_length (rank_lines));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", -1);
      g_autofree char *halved = g_strdup_printf ("%s\t%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                                fields[0], fields[1], g_ascii_strtoll (fields[2], NULL, 10) / 2,
                                                g_ascii_strtoll (fields[3], NULL, 10) / 2,
                                                g_ascii_strtoll (fields[4], NULL, 10) / 2);

      g_assert_true (g_strv_contains ((const char * const *) rank_lines, halved));
    }
}

/* Cancel while the first rank is summed up: the ranks not started are
 * CANCELLED, with no error; at most one per worker got read. */
static void
test_cancel (void)
{
  g_autofree char *root = make_job (8);
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  Hook hook = { .merged = afg_merged_tree_new (), .cancel = cancel };
  g_autoptr(AfgJobLoad) load = new_load (root, merge_tree, &hook);
  guint done = 0, cancelled = 0;

  g_mutex_init (&hook.lock);
  afg_job_load_run (load, cancel);
  for (guint i = 0; i < 8; i++)
    {
      AfgRankState state = afg_job_load_get_state (load, i, NULL, NULL);

      g_assert_true (state == AFG_RANK_STATE_DONE || state == AFG_RANK_STATE_CANCELLED);
      g_assert_null (afg_job_load_get_summaries (load)[i]->error);
      done += state == AFG_RANK_STATE_DONE;
      cancelled += state == AFG_RANK_STATE_CANCELLED;
    }
  g_assert_cmpuint (done, >=, 1);
  g_assert_cmpuint (done, <=, MAX (1, g_get_num_processors ()));
  g_assert_cmpuint (cancelled, ==, 8 - done);
  afg_merged_tree_free (hook.merged);
  g_mutex_clear (&hook.lock);
  afg_test_rm_rf (root);
}

typedef struct {
  guint  *cores;
  gint64 *sizes;  /* of the rank's DB */
} CoreCount;

static gboolean
count_cores (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  CoreCount *count = data;
  GStatBuf st;

  g_assert_cmpint (g_stat (rank->path, &st), ==, 0);
  count->cores[index] = afg_cores_get ();
  count->sizes[index] = st.st_size;
  return TRUE;
}

/* The rank that starts last: the biggest DBs start first, ties in rank order. */
static guint
last_started (const gint64 *sizes, guint n)
{
  guint last = 0;

  for (guint i = 1; i < n; i++)
    if (sizes[i] <= sizes[last])
      last = i;
  return last;
}

static void
record_cores (gpointer data, gpointer user_data)
{
  guint *cores = user_data;

  cores[GPOINTER_TO_UINT (data) - 1] = afg_cores_get ();
}

/* GLib shares the idle threads of its pools: the job's, once done, may
 * run another pool's work, which must get every core again. */
static void
assert_pool_threads_unlimited (guint n)
{
  g_autofree guint *cores = g_new0 (guint, n);
  GThreadPool *pool = g_thread_pool_new (record_cores, cores, (int) n, FALSE, NULL);

  for (guint i = 0; i < n; i++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (cores[i], ==, g_get_num_processors ());
}

/* As many ranks as cores (or more): each read on one core, side by
 * side, but the last to start (the smallest DB), which may end alone,
 * gets them all; so does a lone rank. */
static void
test_cores_per_rank (void)
{
  guint n = MAX (2, g_get_num_processors ());
  g_autofree char *many = make_job (n);
  g_autofree char *one = make_job (1);
  g_autofree guint *cores = g_new0 (guint, n);
  g_autofree gint64 *sizes = g_new0 (gint64, n);
  CoreCount count = { cores, sizes };
  g_autoptr(AfgJobLoad) load = new_load (many, count_cores, &count);
  g_autoptr(AfgJobLoad) alone = NULL;
  guint last;

  afg_job_load_run (load, NULL);
  last = last_started (sizes, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (cores[i], ==, i == last ? g_get_num_processors () : 1);
  assert_pool_threads_unlimited (n);
  alone = new_load (one, count_cores, &count);
  afg_job_load_run (alone, NULL);
  g_assert_cmpuint (cores[0], ==, g_get_num_processors ());
  afg_test_rm_rf (many);
  afg_test_rm_rf (one);
}

typedef struct {
  GMutex          lock;
  AfgJobLoad     *load;
  guint           calls[3];
  guint64         rows[3];   /* as the summary had them when handed over */
  gboolean        failed[3];
} Summed;

static void
note_summed_up (guint index, AfgRankSummary *summary, gpointer data)
{
  Summed *summed = data;
  AfgRankState state = afg_job_load_get_state (summed->load, index, NULL, NULL);

  g_assert_cmpuint (index, <, 3);
  g_assert_true (summary == afg_job_load_get_summaries (summed->load)[index]);
  g_assert_true (state == (summary->error != NULL ? AFG_RANK_STATE_FAILED : AFG_RANK_STATE_DONE));
  g_mutex_lock (&summed->lock);
  summed->calls[index]++;
  summed->rows[index] = summary->rows;
  summed->failed[index] = summary->error != NULL;
  g_mutex_unlock (&summed->lock);
}

/* Each rank read or failed is handed over once, its summary complete:
 * what it has then is what the job ends with. */
static void
test_summed_up (void)
{
  g_autofree char *root = make_job (3);
  g_autofree char *broken = afg_test_make_job_rank (root, "rank1_ascend_pt", "ascend_pytorch_profiler_1.db", 1,
                                                    SAMPLE1);
  AfgJobLoadOptions options = { AFG_TREE_FLAGS_NONE };
  Summed summed = { { 0 } };
  g_autoptr(GError) error = NULL;
  AfgJobFolder *folder;
  g_autoptr(AfgJobLoad) load = NULL;

  afg_test_write_file (broken, "not a database", -1);
  folder = afg_job_folder_discover (root, &error);
  g_assert_no_error (error);
  options.summed_up = note_summed_up;
  options.summed_up_data = &summed;
  load = afg_job_load_new (root, folder, &options);
  summed.load = load;
  g_mutex_init (&summed.lock);
  afg_job_load_run (load, NULL);
  for (guint i = 0; i < 3; i++)
    {
      const AfgRankSummary *summary = afg_job_load_get_summaries (load)[i];

      g_assert_cmpuint (summed.calls[i], ==, 1);
      g_assert_cmpuint (summed.rows[i], ==, summary->rows);
      g_assert_cmpint (summed.failed[i], ==, summary->rank == 1);
      g_assert_cmpint (summary->error != NULL, ==, summary->rank == 1);
      if (summary->rank != 1)
        g_assert_cmpuint (summary->rows, >, 0);
    }
  g_mutex_clear (&summed.lock);
  afg_test_rm_rf (root);
}

/* Cancelled before it starts: no rank is read. */
static void
test_cancelled_before (void)
{
  g_autofree char *root = make_job (3);
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(AfgJobLoad) load = new_load (root, NULL, NULL);

  g_cancellable_cancel (cancel);
  afg_job_load_run (load, cancel);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (afg_job_load_get_state (load, i, NULL, NULL), ==, AFG_RANK_STATE_CANCELLED);
  afg_test_rm_rf (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/job-load/merged", test_merged);
  g_test_add_func ("/job-load/merged-device", test_merged_device);
  g_test_add_func ("/job-load/merge-idle", test_merge_idle);
  g_test_add_func ("/job-load/merged-kernels", test_merged_kernels);
  g_test_add_func ("/job-load/cancel", test_cancel);
  g_test_add_func ("/job-load/cores-per-rank", test_cores_per_rank);
  g_test_add_func ("/job-load/cancelled-before", test_cancelled_before);
  g_test_add_func ("/job-load/summed-up", test_summed_up);
  return g_test_run ();
}
