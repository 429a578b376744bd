/* SPDX-License-Identifier: MIT */
/* Discovery: the profiler DBs of a job folder the test builds. */
#include "config.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib/gstdio.h>

#include "afg-job-folder.h"
#include "afg-test-db.h"

static AfgJobFolder *
discover (const char *root)
{
  g_autoptr(GError) error = NULL;
  AfgJobFolder *job = afg_job_folder_discover (root, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

static const AfgJobRank *
rank_at (const AfgJobFolder *job, guint i)
{
  g_assert_cmpuint (i, <, job->ranks->len);
  return g_ptr_array_index (job->ranks, i);
}

static gboolean
warned (const AfgJobFolder *job, const char *needle)
{
  for (guint i = 0; i < job->warnings->len; i++)
    if (strstr (g_ptr_array_index (job->warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_real_layout (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *db0 = afg_test_make_job_rank (root, "rank0_ascend_pt", "ascend_pytorch_profiler_0.db", 0,
                                    "ascend_pytorch_profiler_level0_rank0");
  g_autofree char *db1 = afg_test_make_job_rank (root, "rank1_ascend_pt", "ascend_pytorch_profiler_1.db", 1,
                                    "ascend_pytorch_profiler_level1_rank0");
  g_autoptr(AfgJobFolder) job = discover (root);

  g_assert_cmpuint (job->ranks->len, ==, 2);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 0);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, db0);
  g_assert_cmpint (rank_at (job, 1)->rank, ==, 1);
  g_assert_cmpstr (rank_at (job, 1)->path, ==, db1);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

static void
test_rank_from_info (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *beside = g_build_filename (root, "flat", NULL);
  g_autofree char *parent = afg_test_make_job_rank (root, "a_ascend_pt", "ascend_pytorch_profiler.db", 5, NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (beside, "ascend_pytorch_profiler.db", "x");
  afg_test_make_file (beside, "profiler_info_7.json", "{}");
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 2);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 5);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, parent);
  g_assert_cmpint (rank_at (job, 1)->rank, ==, 7);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

/* The parent `*_ascend_pt` folder is looked in for a folder named by a
 * relative path too. */
static void
test_rank_from_info_relative (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *up = g_path_get_dirname (root);
  g_autofree char *name = g_path_get_basename (root);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *db = afg_test_make_job_rank (root, "a_ascend_pt", "ascend_pytorch_profiler.db", 5, NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  g_assert_cmpint (g_chdir (up), ==, 0);
  job = discover (name);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 5);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

static void
test_no_rank (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *db = afg_test_make_job_rank (root, "x_ascend_pt", "ascend_pytorch_profiler.db", -1, NULL);
  g_autoptr(AfgJobFolder) job = discover (root);

  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, -1);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, db);
  g_assert_true (warned (job, "shown as rank -1"));
  afg_test_rm_rf (root);
}

static void
set_mtime_ns (const char *path, time_t when, long ns)
{
  struct timespec times[2] = { { when, ns }, { when, ns } };

  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

static void
set_mtime (const char *path, time_t when)
{
  set_mtime_ns (path, when, 0);
}

/* The folder name's stamp wins over the file's mtime. */
static void
test_duplicate_by_stamp (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *newer = afg_test_make_job_rank (root, "h_2_20260102000000000_ascend_pt",
                                      "ascend_pytorch_profiler_3.db", 3, NULL);
  g_autofree char *older = afg_test_make_job_rank (root, "h_1_20260101000000000_ascend_pt",
                                      "ascend_pytorch_profiler_3.db", 3, NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  set_mtime (newer, 1000);
  set_mtime (older, 2000);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, newer);
  g_assert_cmpuint (job->warnings->len, ==, 1);
  g_assert_true (warned (job, "h_2_20260102000000000_ascend_pt"));
  g_assert_true (warned (job, "h_1_20260101000000000_ascend_pt"));
  afg_test_rm_rf (root);
}

static void
test_duplicate_by_mtime (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *a = afg_test_make_job_rank (root, "a_ascend_pt", "ascend_pytorch_profiler_3.db", 3, NULL);
  g_autofree char *b = afg_test_make_job_rank (root, "b_ascend_pt", "ascend_pytorch_profiler_3.db", 3, NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  set_mtime (a, 3000);
  set_mtime (b, 2000);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, a);
  g_assert_true (warned (job, "a_ascend_pt") && warned (job, "b_ascend_pt"));
  /* Within one second the newer still wins, not the later path. */
  set_mtime_ns (a, 3000, 900000000);
  set_mtime_ns (b, 3000, 100000000);
  g_clear_pointer (&job, afg_job_folder_free);
  job = discover (root);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, a);
  afg_test_rm_rf (root);
}

static void
test_no_profiler_db (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *out = g_build_filename (root, "x_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (out, "analysis.db", "");
  afg_test_make_file (out, "ascend_pytorch_profiler_x.db", "");
  afg_test_make_file (out, "ascend_pytorch_profiler_1234567890.db", "");
  afg_test_make_file (out, "ascend_pytorch_profiler_1.db.bak", "");
  job = afg_job_folder_discover (root, &error);
  g_assert_null (job);
  g_assert_error (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NO_PROFILER_DB);
  g_assert_nonnull (afg_job_error_get_hint (error));
  afg_test_rm_rf (root);
}

static void
test_not_a_folder (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (afg_job_folder_discover ("/nonexistent/afg-job", &error));
  g_assert_error (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NOT_A_FOLDER);
}

static void
test_symlink_loop (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *db = afg_test_make_job_rank (root, "r_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL);
  g_autofree char *loop = g_build_filename (root, "r_ascend_pt", "ASCEND_PROFILER_OUTPUT",
                                            "loop", NULL);
  g_autofree char *self = g_build_filename (root, "self", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  g_assert_cmpint (symlink ("..", loop), ==, 0);
  g_assert_cmpint (symlink (".", self), ==, 0);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, db);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

static void
test_symlink_outside (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *outside = afg_test_make_tmp_dir ();
  g_autofree char *target = afg_test_make_job_rank (outside, "o_ascend_pt", "ascend_pytorch_profiler_4.db", 4,
                                       NULL);
  g_autofree char *dir_link = g_build_filename (root, "linked_dir", NULL);
  g_autofree char *file_link = g_build_filename (root, "ascend_pytorch_profiler_5.db", NULL);
  g_autoptr(AfgJobFolder) job = NULL;
  g_autoptr(GError) error = NULL;

  g_free (afg_test_make_job_rank (root, "r_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL));
  g_assert_cmpint (symlink (outside, dir_link), ==, 0);
  g_assert_cmpint (symlink (target, file_link), ==, 0);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 0);
  g_assert_true (warned (job, "linked_dir: a symbolic link out of the folder"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_5.db: a symbolic link out of the folder"));
  afg_test_rm_rf (root);
  afg_test_rm_rf (outside);
}

/* A link inside the folder to a DB already found is that DB, not a duplicate. */
static void
test_symlink_inside (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *db = afg_test_make_job_rank (root, "r_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL);
  g_autofree char *link = g_build_filename (root, "ascend_pytorch_profiler_0.db", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  g_assert_cmpint (symlink (db, link), ==, 0);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

/* Links named for other ranks, in folders listed before the DB they point
 * to (and in any order the file system lists them), take no rank: the
 * real file is found first, each link is a second way to it. */
static void
test_symlink_renamed (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (root, "z_ascend_pt", "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_0.db",
                                          NULL);
  g_autofree char *made = NULL;
  g_autoptr(AfgJobFolder) job = NULL;

  /* The links made first: a file system may list entries as made. */
  for (int i = 1; i <= 100; i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/a%d", root, i);
      g_autofree char *link = g_strdup_printf ("%s/ascend_pytorch_profiler_%d.db", dir, i);

      g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
      g_assert_cmpint (symlink (db, link), ==, 0);
    }
  made = afg_test_make_job_rank (root, "z_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL);
  g_assert_cmpstr (made, ==, db);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 0);
  g_assert_cmpstr (rank_at (job, 0)->path, ==, db);
  afg_test_rm_rf (root);
}

static void
test_depth (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *level6 = g_build_filename (root, "1", "2", "3", "4", "5", "6", NULL);
  g_autofree char *level7 = g_build_filename (level6, "7", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (level6, "ascend_pytorch_profiler_6.db", "");
  afg_test_make_file (level7, "ascend_pytorch_profiler_7.db", "");
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 6);
  g_assert_cmpuint (job->warnings->len, ==, 1);
  g_assert_true (warned (job, "/6/7: folders more than 6 levels deep are not searched"));
  afg_test_rm_rf (root);
}

/* Two folders beyond the limit: one warning, naming the first. */
static void
test_depth_warns_once (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *level6 = g_build_filename (root, "1", "2", "3", "4", "5", "6", NULL);
  g_autofree char *a = g_build_filename (level6, "a", "b", NULL);
  g_autofree char *b = g_build_filename (level6, "c", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (level6, "ascend_pytorch_profiler_6.db", "");
  afg_test_make_file (a, "ascend_pytorch_profiler_7.db", "");
  afg_test_make_file (b, "ascend_pytorch_profiler_8.db", "");
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpuint (job->warnings->len, ==, 1);
  g_assert_true (warned (job, "folders more than 6 levels deep are not searched"));
  afg_test_rm_rf (root);
}

/* Entries named like a profiler DB (any rank) or a rank folder that are
 * not read: one line each, whatever the rank's digits. */
static void
test_not_read_warns (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *fifo = g_build_filename (root, "ascend_pytorch_profiler_3.db", NULL);
  g_autofree char *dir = g_build_filename (root, "ascend_pytorch_profiler_4.db", NULL);
  g_autofree char *long_fifo = g_build_filename (root, "ascend_pytorch_profiler_12345678901.db", NULL);
  g_autofree char *long_dir = g_build_filename (root, "ascend_pytorch_profiler_12345678902.db", NULL);
  g_autofree char *dangling = g_build_filename (root, "ascend_pytorch_profiler_5.db", NULL);
  g_autofree char *dangling_rank = g_build_filename (root, "rank6_ascend_pt", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  g_free (afg_test_make_job_rank (root, "r_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_cmpint (mkfifo (long_fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (long_dir, 0755), ==, 0);
  g_assert_cmpint (symlink ("missing.db", dangling), ==, 0);
  g_assert_cmpint (symlink ("missing_ascend_pt", dangling_rank), ==, 0);
  afg_test_make_file (root, "ascend_pytorch_profiler_1234567890.db", "");
  afg_test_make_file (root, "ascend_pytorch_profiler_123456789.db", "");
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 2);
  g_assert_cmpint (rank_at (job, 1)->rank, ==, 123456789);
  g_assert_cmpuint (job->warnings->len, ==, 7);
  g_assert_true (warned (job, "ascend_pytorch_profiler_3.db: named like a profiler DB but not a regular file"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_4.db: a folder named like a profiler DB; not read as one"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_1234567890.db: a rank of 10 digits or more; skipped"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_12345678901.db: named like a profiler DB but not a regular file"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_12345678902.db: a folder named like a profiler DB"));
  g_assert_true (warned (job, "ascend_pytorch_profiler_5.db: a symbolic link that leads nowhere; skipped"));
  g_assert_true (warned (job, "rank6_ascend_pt: a symbolic link that leads nowhere; skipped"));
  afg_test_rm_rf (root);
}

/* A link at the depth limit back to a folder already searched leaves
 * nothing unsearched: no depth warning. */
static void
test_depth_link_back (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *level5 = g_build_filename (root, "1", "2", "3", "4", "5", NULL);
  g_autofree char *back = g_build_filename (level5, "6", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (level5, "ascend_pytorch_profiler_5.db", "");
  g_assert_cmpint (symlink (root, back), ==, 0);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpuint (job->warnings->len, ==, 0);
  afg_test_rm_rf (root);
}

/* Root reads any folder: the check then runs as the user nobody. */
static void
drop_to_nobody (void)
{
  struct passwd *nobody = getpwnam ("nobody");

  g_assert_nonnull (nobody);
  g_assert_cmpint (setgroups (0, NULL), ==, 0);
  g_assert_cmpint (setgid (nobody->pw_gid), ==, 0);
  g_assert_cmpint (setuid (nobody->pw_uid), ==, 0);
}

static void
check_unreadable_folder (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *closed = g_build_filename (root, "closed", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  g_free (afg_test_make_job_rank (root, "r_ascend_pt", "ascend_pytorch_profiler_0.db", 0, NULL));
  afg_test_make_file (closed, "ascend_pytorch_profiler_1.db", "");
  g_assert_cmpint (g_chmod (closed, 0), ==, 0);
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_true (warned (job, "closed: cannot be read"));
  g_chmod (closed, 0755);
  afg_test_rm_rf (root);
}

/* In a subprocess, which may drop root for good. */
static void
test_unreadable_folder (void)
{
  if (g_test_subprocess ())
    {
      if (afg_test_is_root ())
        drop_to_nobody ();
      check_unreadable_folder ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_rank_limit (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autoptr(AfgJobFolder) job = NULL;

  for (int i = 0; i < AFG_JOB_MAX_RANKS + 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", i);
      afg_test_make_file (root, name, "");
    }
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, AFG_JOB_MAX_RANKS);
  g_assert_cmpint (rank_at (job, AFG_JOB_MAX_RANKS - 1)->rank, ==, AFG_JOB_MAX_RANKS - 1);
  g_assert_true (warned (job, "ranks from 1024 on are ignored"));
  afg_test_rm_rf (root);
}

/* A folder name that is not UTF-8 and holds a newline still works. */
static void
test_weird_names (void)
{
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *weird = g_build_filename (root, "we\nird\xff_ascend_pt", NULL);
  g_autoptr(AfgJobFolder) job = NULL;

  afg_test_make_file (weird, "ascend_pytorch_profiler_2.db", "");
  job = discover (root);
  g_assert_cmpuint (job->ranks->len, ==, 1);
  g_assert_cmpint (rank_at (job, 0)->rank, ==, 2);
  afg_test_rm_rf (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/job-folder/real-layout", test_real_layout);
  g_test_add_func ("/job-folder/rank-from-info", test_rank_from_info);
  g_test_add_func ("/job-folder/rank-from-info-relative", test_rank_from_info_relative);
  g_test_add_func ("/job-folder/no-rank", test_no_rank);
  g_test_add_func ("/job-folder/duplicate/by-stamp", test_duplicate_by_stamp);
  g_test_add_func ("/job-folder/duplicate/by-mtime", test_duplicate_by_mtime);
  g_test_add_func ("/job-folder/no-profiler-db", test_no_profiler_db);
  g_test_add_func ("/job-folder/not-a-folder", test_not_a_folder);
  g_test_add_func ("/job-folder/symlink/loop", test_symlink_loop);
  g_test_add_func ("/job-folder/symlink/outside", test_symlink_outside);
  g_test_add_func ("/job-folder/symlink/inside", test_symlink_inside);
  g_test_add_func ("/job-folder/symlink/renamed", test_symlink_renamed);
  g_test_add_func ("/job-folder/depth", test_depth);
  g_test_add_func ("/job-folder/depth-warns-once", test_depth_warns_once);
  g_test_add_func ("/job-folder/depth-link-back", test_depth_link_back);
  g_test_add_func ("/job-folder/not-read-warns", test_not_read_warns);
  g_test_add_func ("/job-folder/unreadable-folder", test_unreadable_folder);
  g_test_add_func ("/job-folder/rank-limit", test_rank_limit);
  g_test_add_func ("/job-folder/weird-names", test_weird_names);
  return g_test_run ();
}
