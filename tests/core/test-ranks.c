/* SPDX-License-Identifier: MIT */
/* The CLI's --export of a job folder the test builds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <utime.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-test-db.h"

#define ERROR_PREFIX "ascend-flamegraph: error: "
#define HINT_PREFIX  "ascend-flamegraph: hint: "
#define SAMPLE0 "ascend_pytorch_profiler_level0_rank0"
#define SAMPLE1 "ascend_pytorch_profiler_level1_rank0"

/* The two real samples as ranks 0 and 1, each beside an analysis.db. */
static char *
make_sample_job (void)
{
  char *root = afg_test_make_tmp_dir ();
  g_free (afg_test_make_job_rank (root, "rank0_ascend_pt", "ascend_pytorch_profiler_0.db", 0,
                                  SAMPLE0));
  g_free (afg_test_make_job_rank (root, "rank1_ascend_pt", "ascend_pytorch_profiler_1.db", 1,
                                  SAMPLE1));
  return root;
}

/* @option: one more option, or NULL. */
static int
run_export_with (const char *format, const char *option, const char *out, const char *input, char **err)
{
  const char *args[] = { "--export", "-f", format, "-o", out, input, option, NULL };

  return afg_test_run_cli (args, FALSE, NULL, err);
}

static int
run_export (const char *format, const char *out, const char *input, char **err)
{
  return run_export_with (format, NULL, out, input, err);
}

static char *
read_text (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* The rank's file is the sample's bytes (exported with @option too) but
 * for its file name. */
static void
assert_same_as_single_with (const char *format, const char *option, const char *file, const char *out,
                            int rank, const char *sample)
{
  g_autofree char *single_dir = afg_test_make_tmp_dir ();
  g_autofree char *db = afg_test_sample_path (sample, ".db");
  g_autofree char *rank_dir = g_strdup_printf ("%s/rank%d", out, rank);
  g_autofree char *single = NULL;
  g_autofree char *ranked = NULL;
  g_autofree char *sample_name = g_strconcat (sample, ".db", NULL);
  g_autofree char *rank_name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", rank);
  g_autoptr(GString) expected = NULL;

  g_assert_cmpint (run_export_with (format, option, single_dir, db, NULL), ==, 0);
  single = read_text (single_dir, file);
  ranked = read_text (rank_dir, file);
  expected = g_string_new (single);
  g_string_replace (expected, sample_name, rank_name, 0);
  g_assert_true (strcmp (expected->str, ranked) == 0);
  afg_test_rm_rf (single_dir);
}

static void
assert_same_as_single (const char *format, const char *file, const char *out, int rank,
                       const char *sample)
{
  assert_same_as_single_with (format, NULL, file, out, rank, sample);
}

static JsonObject *
ranks_entry (JsonNode *root, guint i)
{
  JsonObject *object = json_node_get_object (root);
  JsonArray *ranks = json_object_get_array_member (object, "ranks");

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "ascend-flamegraph-ranks");
  g_assert_cmpint (json_object_get_int_member (object, "version"), ==, 2);
  g_assert_cmpuint (i, <, json_array_get_length (ranks));
  return json_array_get_object_element (ranks, i);
}

static JsonNode *
read_ranks_json (const char *out)
{
  g_autofree char *text = read_text (out, "ranks.json");
  GError *error = NULL;
  JsonNode *root = json_from_string (text, &error);

  g_assert_no_error (error);
  return root;
}

/* host_ns is the whole tree's total, as loading the sample alone gives it. */
static void
assert_rank_figures (JsonObject *entry, int rank, const char *sample)
{
  g_autofree char *db = afg_test_sample_path (sample, ".db");
  g_autoptr(AfgTree) tree = afg_test_load_tree (db, NULL, NULL, NULL, NULL);
  JsonArray *steps = json_object_get_array_member (entry, "steps");
  guint n;
  const AfgStep *doc_steps = afg_document_get_steps (afg_tree_get_document (tree), &n);

  g_assert_cmpint (json_object_get_int_member (entry, "rank"), ==, rank);
  g_assert_true (json_object_get_null_member (entry, "error"));
  g_assert_cmpint (json_object_get_int_member (entry, "host_ns"), ==,
                   afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  g_assert_cmpint (json_object_get_int_member (entry, "npu_ns"), ==,
                   afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT));
  g_assert_cmpint (json_object_get_int_member (entry, "rows"), ==,
                   afg_document_get_load_stats (afg_tree_get_document (tree))->rows);
  g_assert_cmpint (json_object_get_int_member (entry, "threads"), ==, afg_tree_get_n_threads (tree));
  g_assert_cmpuint (json_array_get_length (steps), ==, n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);

      g_assert_cmpint (json_object_get_int_member (step, "id"), ==, doc_steps[i].id);
      g_assert_cmpint (json_object_get_int_member (step, "host_ns"), >, 0);
      g_assert_cmpint (json_object_get_int_member (step, "host_ns"), <=,
                       json_object_get_int_member (entry, "host_ns"));
    }
}

static void
test_samples (gconstpointer data)
{
  const char *format = data;
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *file = g_strconcat ("flamegraph.", format, NULL);
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpint (run_export (format, out, job, NULL), ==, 0);
  assert_same_as_single (format, file, out, 0, SAMPLE0);
  assert_same_as_single (format, file, out, 1, SAMPLE1);
  root = read_ranks_json (out);
  assert_rank_figures (ranks_entry (root, 0), 0, SAMPLE0);
  assert_rank_figures (ranks_entry (root, 1), 1, SAMPLE1);
  g_assert_cmpstr (json_object_get_string_member (ranks_entry (root, 1), "file"), ==,
                   "rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db");
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* --weight compute --kernels: each rank's folded stacks have their
 * kernel leaves, the same bytes as the sample exported alone. */
static void
test_samples_kernels (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *single = afg_test_make_tmp_dir ();
  g_autofree char *db = afg_test_sample_path (SAMPLE0, ".db");
  g_autofree char *ranked_text = NULL;
  g_autofree char *single_text = NULL;
  g_autofree char *rank0 = g_build_filename (out, "rank0", NULL);
  const char *job_args[] = { "--export", "-f", "folded", "--weight", "compute", "--kernels", "-o", out, job, NULL };
  const char *one_args[] = { "--export", "-f", "folded", "--weight", "compute", "--kernels", "-o", single, db, NULL };

  g_assert_cmpint (afg_test_run_cli (job_args, FALSE, NULL, NULL), ==, 0);
  g_assert_cmpint (afg_test_run_cli (one_args, FALSE, NULL, NULL), ==, 0);
  ranked_text = read_text (rank0, "flamegraph.folded");
  single_text = read_text (single, "flamegraph.folded");
  g_assert_nonnull (strstr (single_text, ";[compute] "));
  g_assert_cmpstr (ranked_text, ==, single_text);
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
  afg_test_rm_rf (single);
}

/* --merge-addresses: each rank as that DB exported alone with it; the
 * samples have address variants, so the files differ from the plain ones,
 * and ranks.json (its frames merged anyway) does not. */
static void
test_samples_merged (gconstpointer data)
{
  const char *format = data;
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *plain = afg_test_make_tmp_dir ();
  g_autofree char *file = g_strconcat ("flamegraph.", format, NULL);
  g_autofree char *rank0 = g_build_filename (out, "rank0", NULL);
  g_autofree char *plain0 = g_build_filename (plain, "rank0", NULL);
  g_autofree char *merged_text = NULL;
  g_autofree char *plain_text = NULL;
  g_autofree char *merged_json = NULL;
  g_autofree char *plain_json = NULL;

  g_assert_cmpint (run_export_with (format, "--merge-addresses", out, job, NULL), ==, 0);
  g_assert_cmpint (run_export (format, plain, job, NULL), ==, 0);
  assert_same_as_single_with (format, "--merge-addresses", file, out, 0, SAMPLE0);
  assert_same_as_single_with (format, "--merge-addresses", file, out, 1, SAMPLE1);
  merged_text = read_text (rank0, file);
  plain_text = read_text (plain0, file);
  g_assert_cmpstr (merged_text, !=, plain_text);
  merged_json = read_text (out, "ranks.json");
  plain_json = read_text (plain, "ranks.json");
  g_assert_cmpstr (merged_json, ==, plain_json);
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
  afg_test_rm_rf (plain);
}

static void
test_broken_rank (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *bad = afg_test_make_job_rank (job, "rank2_ascend_pt",
                                                 "ascend_pytorch_profiler_2.db", 2, NULL);
  g_autofree char *err = NULL;
  g_autofree char *line = g_strconcat (ERROR_PREFIX "rank 2: ", bad, ": ", NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json0 = g_build_filename (out, "rank0", "flamegraph.json", NULL);
  g_autofree char *rank2_dir = g_build_filename (out, "rank2", NULL);

  g_assert_cmpint (run_export ("json", out, job, &err), ==, 1);
  g_assert_true (g_str_has_prefix (err, line) || strstr (err, line) != NULL);
  g_assert_null (strstr (strstr (err, line) + 1, ERROR_PREFIX));
  root = read_ranks_json (out);
  g_assert_true (json_object_get_null_member (ranks_entry (root, 0), "error"));
  g_assert_nonnull (strstr (json_object_get_string_member (ranks_entry (root, 2), "error"),
                            "not an SQLite database"));
  g_assert_true (g_file_test (json0, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (rank2_dir, G_FILE_TEST_EXISTS));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* A job written to a disk that fills up (a 256 KiB tmpfs; mounting one
 * needs root): the first ENOSPC stops it with one error line, exit 3,
 * and the folders it made are gone, the output folder too. */
static void
test_full_disk (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *disk = afg_test_make_tmp_dir ();
  g_autofree char *top = g_build_filename (disk, "x", NULL);
  g_autofree char *out = g_build_filename (disk, "x", "out", NULL);
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;

  for (int i = 0; i < 12; i++)
    {
      g_autofree char *dir = g_strdup_printf ("rank%d_ascend_pt", i);
      g_autofree char *name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", i);

      g_free (afg_test_make_job_rank (job, dir, name, i, SAMPLE0));
    }
  if (!afg_test_is_root () || mount ("tmpfs", disk, "tmpfs", 0, "size=256k") != 0)
    {
      g_test_skip ("cannot mount a small tmpfs (needs root)");
      afg_test_rm_rf (job);
      afg_test_rm_rf (disk);
      return;
    }
  g_assert_cmpint (run_export ("json", out, job, &err), ==, 3);
  lines = g_strsplit (err, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], ERROR_PREFIX));
  g_assert_true (g_str_has_suffix (lines[0], "No space left on device"));
  g_assert_true (g_str_has_prefix (lines[1], HINT_PREFIX));
  g_assert_false (g_file_test (top, G_FILE_TEST_EXISTS));
  g_assert_cmpint (umount (disk), ==, 0);
  afg_test_rm_rf (job);
  afg_test_rm_rf (disk);
}

/* One DB's export and its -f summary on a full disk (a 16 KiB tmpfs):
 * exit 3, and the output folders each made (-o a/b/c) are gone. */
static void
test_full_disk_single (void)
{
  g_autofree char *disk = afg_test_make_tmp_dir ();
  g_autofree char *top = g_build_filename (disk, "a", NULL);
  g_autofree char *out = g_build_filename (disk, "a", "b", "c", NULL);
  g_autofree char *sample = afg_test_sample_path (SAMPLE0, ".db");
  const char *single[] = { "--export", "-q", "-f", "json", "-o", out, sample, NULL };
  const char *summary[] = { "--export", "-q", "-f", "summary", "-o", out, sample, NULL };

  if (!afg_test_is_root () || mount ("tmpfs", disk, "tmpfs", 0, "size=16k") != 0)
    {
      g_test_skip ("cannot mount a small tmpfs (needs root)");
      afg_test_rm_rf (disk);
      return;
    }
  g_assert_cmpint (afg_test_run_cli (single, FALSE, NULL, NULL), ==, 3);
  g_assert_false (g_file_test (top, G_FILE_TEST_EXISTS));
  g_assert_cmpint (afg_test_run_cli (summary, FALSE, NULL, NULL), ==, 3);
  g_assert_false (g_file_test (top, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (disk, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (umount (disk), ==, 0);
  afg_test_rm_rf (disk);
}

static void
test_no_profiler_db (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *dir = g_build_filename (job, "x_ascend_pt", NULL);
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *before = afg_test_snapshot_dir (out);
  g_autofree char *after = NULL;

  afg_test_make_file (dir, "analysis.db", "");
  g_assert_cmpint (run_export ("json", out, job, &err), ==, 1);
  after = afg_test_snapshot_dir (out);
  g_assert_cmpstr (before, ==, after);
  expected = g_strconcat (ERROR_PREFIX, job, ": no ascend_pytorch_profiler_{rank}.db in this folder\n",
                          HINT_PREFIX, NULL);
  g_assert_true (g_str_has_prefix (err, expected));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

static void
test_duplicate_warns (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *err = NULL;
  g_autofree char *db = afg_test_make_job_rank (job, "h_1_20200101000000000_ascend_pt",
                                                "ascend_pytorch_profiler_1.db", 1, NULL);
  struct utimbuf old = { 1000, 1000 };

  g_assert_cmpint (utime (db, &old), ==, 0);
  g_assert_cmpint (run_export ("folded", out, job, &err), ==, 0);
  g_assert_nonnull (strstr (err, "warning: rank 1 is in both"));
  g_assert_nonnull (strstr (err, "h_1_20200101000000000_ascend_pt"));
  g_assert_nonnull (strstr (err, "rank1_ascend_pt"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

static void
exec_sql (const char *path, const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* What a single export of each rank warns of, each line after the rank's
 * number, in rank order whichever rank is read first; nothing with -q.
 * The samples each have one row with endNs <= startNs; rank 1's
 * COMMUNICATION_OP is made unusable. */
static void
test_rank_warnings (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *db1 = g_build_filename (job, "rank1_ascend_pt", "ASCEND_PROFILER_OUTPUT",
                                           "ascend_pytorch_profiler_1.db", NULL);
  const char *quiet[] = { "--export", "-q", "-f", "folded", "-o", out, job, NULL };
  const char *summary[] = { "--export", "-f", "summary", "--job-root", job, "-o", out, db1, NULL };
  g_autofree char *err = NULL;
  g_autofree char *quiet_err = NULL;
  g_autofree char *summary_err = NULL;
  const char *skipped0, *skipped1, *unusable;

  exec_sql (db1, "CREATE TRIGGER t AFTER INSERT ON COMMUNICATION_OP BEGIN SELECT 1; END;");
  g_assert_cmpint (run_export ("folded", out, job, &err), ==, 0);
  skipped0 = strstr (err, "ascend-flamegraph: warning: rank 0: 1 row with endNs <= startNs was skipped\n");
  skipped1 = strstr (err, "ascend-flamegraph: warning: rank 1: 1 row with endNs <= startNs was skipped\n");
  unusable = strstr (err, "ascend-flamegraph: warning: rank 1: no device task kinds from COMMUNICATION_OP: "
                          "COMMUNICATION_OP is a view or has triggers, not a plain table\n");
  g_assert_nonnull (skipped0);
  g_assert_true (skipped0 < skipped1 && skipped1 < unusable);
  g_assert_null (strstr (err, "warning: rank 0: no device task kinds"));
  g_assert_true (unusable < strstr (err, "2 ranks written"));
  g_assert_cmpint (afg_test_run_cli (quiet, FALSE, NULL, &quiet_err), ==, 0);
  g_assert_cmpstr (quiet_err, ==, "");
  g_assert_cmpint (afg_test_run_cli (summary, FALSE, NULL, &summary_err), ==, 0);
  g_assert_nonnull (strstr (summary_err, "warning: rank 1: 1 row with endNs <= startNs was skipped\n"));
  g_assert_nonnull (strstr (summary_err, "warning: rank 1: no device task kinds from COMMUNICATION_OP"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

static void
generate_rank (const char *job, int rank, const char *rows)
{
  g_autofree char *folder = g_strdup_printf ("host_%d_20261204000000000_ascend_pt", rank);
  g_autofree char *name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", rank);
  g_autofree char *dir = g_build_filename (job, folder, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *gen[] = { g_getenv ("AFG_GEN_DB"), "--steps", "4", path, rows, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_spawn_sync (NULL, (char **) gen, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
}

/* Eight generated ranks, rank 5 with 30% more rows per step: longer steps
 * alone make no straggler (the old rule marked any rank more than 5% from
 * the median); their collectives match with equal durations: balanced. */
static void
test_generated_straggler (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *index = NULL;

  for (int rank = 0; rank < 8; rank++)
    generate_rank (job, rank, rank == 5 ? "26000" : "20000");
  g_assert_cmpint (run_export ("html", out, job, NULL), ==, 0);
  root = read_ranks_json (out);
  g_assert_true (json_object_get_null_member (json_node_get_object (root), "straggler"));
  for (guint i = 0; i < 8; i++)
    g_assert_false (json_object_get_boolean_member (ranks_entry (root, i), "is_straggler"));
  index = read_text (out, "index.html");
  g_assert_null (strstr (index, "<tr class=\"straggler\">"));
  g_assert_nonnull (strstr (index, "The ranks are balanced"));
  for (int rank = 0; rank < 8; rank++)
    {
      g_autofree char *page = g_strdup_printf ("%s/rank%d/flamegraph.html", out, rank);
      g_autofree char *link = g_strdup_printf ("href=\"rank%d/flamegraph.html\"", rank);

      g_assert_true (g_file_test (page, G_FILE_TEST_IS_REGULAR));
      g_assert_nonnull (strstr (index, link));
    }
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* A rank that cannot be read is in the page with its error, without a link. */
static void
test_index_broken_rank (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *index = NULL;

  g_free (afg_test_make_job_rank (job, "rank2_ascend_pt", "ascend_pytorch_profiler_2.db", 2, NULL));
  g_assert_cmpint (run_export ("html", out, job, NULL), ==, 1);
  index = read_text (out, "index.html");
  g_assert_nonnull (strstr (index, "href=\"rank0/flamegraph.html\""));
  g_assert_nonnull (strstr (index, "href=\"rank1/flamegraph.html\""));
  g_assert_null (strstr (index, "href=\"rank2/"));
  g_assert_nonnull (strstr (index, "ascend_pytorch_profiler_2.db: not an SQLite database"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* Exported again into the same folder after rank 1 broke: its page of
 * the first export goes, as it stands for a rank that has none now. */
static void
test_stale_rank_page (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *page = g_build_filename (out, "rank1", "flamegraph.html", NULL);
  g_autofree char *rank_dir = g_build_filename (out, "rank1", NULL);
  g_autofree char *db = NULL;

  g_assert_cmpint (run_export ("html", out, job, NULL), ==, 0);
  g_assert_true (g_file_test (page, G_FILE_TEST_IS_REGULAR));
  db = afg_test_make_job_rank (job, "rank1_ascend_pt", "ascend_pytorch_profiler_1.db", 1, NULL);
  g_assert_cmpint (run_export ("html", out, job, NULL), ==, 1);
  g_assert_false (g_file_test (page, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (rank_dir, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_DIR));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* A subfolder that cannot be read is skipped with a warning (run as
 * nobody when we are root, who reads any folder). */
static void
test_unreadable_folder (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *closed = g_build_filename (job, "closed", NULL);
  g_autofree char *err = NULL;
  g_autofree char *warning = g_strconcat ("warning: ", closed, ": cannot be read; skipped", NULL);
  const char *args[] = { "--export", "-f", "folded", "-o", out, job, NULL };

  afg_test_make_file (closed, "ascend_pytorch_profiler_7.db", "");
  g_assert_cmpint (g_chmod (job, 0755), ==, 0);
  g_assert_cmpint (g_chmod (out, 0777), ==, 0);
  g_assert_cmpint (g_chmod (closed, 0), ==, 0);
  g_assert_cmpint (afg_test_run_cli (args, TRUE, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, warning));
  g_assert_nonnull (strstr (err, "2 ranks written"));
  g_chmod (closed, 0755);
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* One rank is one, in the line on stderr and in the index's title. */
static void
test_one_rank (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *err = NULL;
  g_autofree char *index = NULL;

  g_free (afg_test_make_job_rank (job, "rank0_ascend_pt", "ascend_pytorch_profiler_0.db", 0, SAMPLE0));
  g_assert_cmpint (run_export ("html", out, job, &err), ==, 0);
  g_assert_nonnull (strstr (err, ": 1 rank written to "));
  index = read_text (out, "index.html");
  g_assert_nonnull (strstr (index, "<h1>Training job: 1 rank</h1>"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* Ranks with two frames: the index's frames table says how many it shows. */
static void
test_index_few_frames (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 1000, "f" }, { GTID (1, 1), 100, 500, "g" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *sample = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *index = NULL;
  g_autofree char *dir = NULL;
  gsize len = 0;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  sample = afg_test_db_keep (db);
  g_assert_true (g_file_get_contents (sample, &bytes, &len, NULL));
  for (int rank = 0; rank < 2; rank++)
    {
      g_autofree char *folder = g_strdup_printf ("rank%d_ascend_pt", rank);
      g_autofree char *name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", rank);
      g_autofree char *path = afg_test_make_job_rank (job, folder, name, rank, NULL);

      afg_test_write_file (path, bytes, len);
    }
  g_assert_cmpint (run_export ("html", out, job, NULL), ==, 0);
  index = read_text (out, "index.html");
  g_assert_nonnull (strstr (index, "<p>The 2 frames (addresses merged) whose total time differs most"));
  afg_test_rm_rf (dir = g_path_get_dirname (sample));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* -f trace reads each DB's tasks again: one DB at a time, not a folder. */
static void
test_trace_refused (void)
{
  g_autofree char *job = make_sample_job ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *err = NULL;
  g_autofree char *before = afg_test_snapshot_dir (out);
  g_autofree char *after = NULL;

  g_assert_cmpint (run_export ("trace", out, job, &err), ==, 2);
  g_assert_nonnull (strstr (err, ERROR_PREFIX "a job folder takes --export with -f html, json or folded"));
  after = afg_test_snapshot_dir (out);
  g_assert_cmpstr (before, ==, after);
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/ranks/samples/json", "json", test_samples);
  g_test_add_data_func ("/ranks/samples/folded", "folded", test_samples);
  g_test_add_data_func ("/ranks/samples/html", "html", test_samples);
  g_test_add_data_func ("/ranks/samples-merged/json", "json", test_samples_merged);
  g_test_add_data_func ("/ranks/samples-merged/folded", "folded", test_samples_merged);
  g_test_add_data_func ("/ranks/samples-merged/html", "html", test_samples_merged);
  g_test_add_func ("/ranks/broken-rank", test_broken_rank);
  g_test_add_func ("/ranks/no-profiler-db", test_no_profiler_db);
  g_test_add_func ("/ranks/full-disk", test_full_disk);
  g_test_add_func ("/ranks/full-disk-single", test_full_disk_single);
  g_test_add_func ("/ranks/duplicate-warns", test_duplicate_warns);
  g_test_add_func ("/ranks/rank-warnings", test_rank_warnings);
  g_test_add_func ("/ranks/generated-straggler", test_generated_straggler);
  g_test_add_func ("/ranks/index/broken-rank", test_index_broken_rank);
  g_test_add_func ("/ranks/stale-rank-page", test_stale_rank_page);
  g_test_add_func ("/ranks/samples/kernels", test_samples_kernels);
  g_test_add_func ("/ranks/index/few-frames", test_index_few_frames);
  g_test_add_func ("/ranks/unreadable-folder", test_unreadable_folder);
  g_test_add_func ("/ranks/trace-refused", test_trace_refused);
  g_test_add_func ("/ranks/one-rank", test_one_rank);
  return g_test_run ();
}
