/* SPDX-License-Identifier: MIT */
/* Loading is interruptible: the SQLite work runs under a progress handler
 * that honours the GCancellable, so a cancel stops a long scan promptly,
 * and a cancelled load leaves no private WAL copy behind. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "afg-hostile.h"
#include "afg-loader.h"

#define BIG_ROWS "400000"
/* Generous: the ASan build is several times slower. */
#define MAX_CANCEL_SECONDS 2.0

static char *tmp_root;
static char *big_db;

typedef struct {
  const char   *path;
  GCancellable *cancellable;
  AfgTree   *tree;
  GError       *error;
  gint64        finished;
} Load;

static gpointer
load_thread (gpointer data)
{
  Load *load = data;

  load->tree = afg_test_load_tree (load->path, load->cancellable, NULL, NULL, &load->error);
  load->finished = g_get_monotonic_time ();
  return NULL;
}

static double
full_load_seconds (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = afg_test_load_tree (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return afg_document_get_load_seconds (afg_tree_get_document (tree));
}

static void
assert_no_private_copies (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_root, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_false (g_str_has_prefix (name, "ascend-flamegraph-"));
}

/* Cancels @path's load at @n random moments within its full duration:
 * each ends with a profile (it finished first) or G_IO_ERROR_CANCELLED,
 * within MAX_CANCEL_SECONDS of the cancel. */
static guint
cancel_at_random (const char *path, guint n, guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  double full = full_load_seconds (path);
  guint cancelled = 0;

  g_test_message ("full load of %s: %.3f s", path, full);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      Load load = { path, cancellable, NULL, NULL, 0 };
      GThread *thread = g_thread_new ("load", load_thread, &load);
      gint64 at;

      g_usleep ((gulong) (g_rand_double (rand) * full * G_USEC_PER_SEC));
      at = g_get_monotonic_time ();
      g_cancellable_cancel (cancellable);
      g_thread_join (thread);
      if (load.tree != NULL)
        g_assert_no_error (load.error);
      else
        {
          g_assert_error (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          g_assert_cmpfloat ((load.finished - at) / 1e6, <, MAX_CANCEL_SECONDS);
          cancelled++;
        }
      g_clear_pointer (&load.tree, afg_tree_unref);
      g_clear_error (&load.error);
      assert_no_private_copies ();
    }
  g_test_message ("%u of %u loads stopped by the cancel", cancelled, n);
  return cancelled;
}

static void
test_cancelled_before (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  AfgTree *tree;

  g_cancellable_cancel (cancellable);
  tree = afg_test_load_tree (big_db, cancellable, NULL, NULL, &error);
  g_assert_null (tree);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_cancel_twenty_times (void)
{
  guint cancelled = cancel_at_random (big_db, 20, 6);

  g_assert_cmpuint (cancelled, >, 0);
}

/* A live -wal is copied to a private temp directory: a cancel must
 * remove it too. */
static void
test_cancel_live_wal (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_WAL);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = NULL;
  g_autofree char *sql = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 300000)"
      " SELECT n * 10, n * 10 + 5, n %% 7, %" G_GINT64_FORMAT ", 50001 FROM r",
      afg_test_db_name (t, "aten::mm"));

  afg_test_db_exec (t, sql);
  copy = afg_test_db_copy_live (t, dir);
  cancel_at_random (copy, 8, 7);
  afg_test_rm_rf (dir);
  afg_test_db_free (t);
}

/* Copying a big -wal to the private directory is loading work too: a
 * cancel must stop it, not wait for it. */
static void
test_cancel_wal_copy (void)
{
  char *db = afg_hostile_sample_copy ("ascend_pytorch_profiler_level1_rank0.db", -1);
  g_autofree char *wal = g_strconcat (db, "-wal", NULL);
  g_autofree char *dir = g_path_get_dirname (db);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Load load = { db, cancellable, NULL, NULL, 0 };
  GThread *thread;
  gint64 at;

  afg_hostile_make_sparse (wal, 512 << 20);
  thread = g_thread_new ("load", load_thread, &load);
  g_usleep (50000);
  at = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  g_test_message ("returned %.3f s after the cancel", (load.finished - at) / 1e6);
  g_assert_null (load.tree);
  g_assert_error (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat ((load.finished - at) / 1e6, <, 1.0);
  g_clear_pointer (&load.tree, afg_tree_unref);
  g_clear_error (&load.error);
  assert_no_private_copies ();
  afg_test_rm_rf (dir);
  g_free (db);
}

int
main (int argc, char **argv)
{
  int status;

  /* Before anything asks for g_get_tmp_dir (), which caches it. */
  tmp_root = g_strdup ("/tmp/afg-cancel-XXXXXX");
  g_assert_nonnull (g_mkdtemp (tmp_root));
  g_setenv ("TMPDIR", tmp_root, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  big_db = afg_hostile_generate_db (NULL, BIG_ROWS);
  g_test_add_func ("/cancel/before-start", test_cancelled_before);
  g_test_add_func ("/cancel/twenty-times", test_cancel_twenty_times);
  g_test_add_func ("/cancel/live-wal", test_cancel_live_wal);
  g_test_add_func ("/cancel/wal-copy", test_cancel_wal_copy);
  status = g_test_run ();
  afg_test_rm_rf (tmp_root);
  return status;
}
