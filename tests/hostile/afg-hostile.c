/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "afg-hostile.h"

#define PREFIX "ascend-flamegraph: "

void
afg_hostile_run_clear (AfgHostileRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

void
afg_hostile_spawn (const char * const *args, AfgHostileChildSetup setup, AfgHostileRun *run)
{
  const char *exe = g_getenv ("AFG_EXE");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  gint64 started;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  env = g_environ_unsetenv (env, "LANGUAGE");
  memset (run, 0, sizeof *run);
  started = g_get_monotonic_time ();
  g_spawn_sync ("/", (char **) argv->pdata, env, G_SPAWN_DEFAULT, setup, NULL,
                &run->out, &run->err, &run->status, &error);
  g_assert_no_error (error);
  run->seconds = (g_get_monotonic_time () - started) / 1e6;
  g_test_message ("cli (%.2f s, status 0x%x) stderr: %s", run->seconds, run->status, run->err);
}

int
afg_hostile_export (const char *db, const char *out_dir, AfgHostileRun *run)
{
  const char *args[] = { "--export", "-f", "json", "-o", out_dir, db, NULL };
  g_autofree char *in_dir = g_path_get_dirname (db);
  g_autofree char *before = afg_test_snapshot_dir (in_dir);
  g_autofree char *after = NULL;

  afg_hostile_spawn (args, NULL, run);
  after = afg_test_snapshot_dir (in_dir);
  g_assert_cmpstr (after, ==, before);
  g_assert_true (WIFEXITED (run->status));
  return WEXITSTATUS (run->status);
}

void
afg_hostile_assert_error (const AfgHostileRun *run, const char *db, const char *reason)
{
  g_autofree char *head = g_strconcat (PREFIX "error: ", db, ": ", NULL);
  g_auto(GStrv) lines = g_strsplit (run->err, "\n", -1);
  guint n = g_strv_length (lines);

  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_assert_true (g_str_has_prefix (lines[0], head));
  g_assert_nonnull (strstr (lines[0] + strlen (head), reason));
  g_assert_cmpuint (n, <=, 3);
  if (n == 3)
    g_assert_true (g_str_has_prefix (lines[1], PREFIX "hint: "));
  g_assert_cmpstr (run->out, ==, "");
}

void
afg_hostile_assert_empty_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name = d ? g_dir_read_name (d) : NULL;

  g_assert_nonnull (d);
  g_assert_cmpstr (name, ==, NULL);
}

JsonNode *
afg_hostile_export_json (const char *db)
{
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *json = g_build_filename (out_dir, "flamegraph.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  AfgHostileRun run;
  int code = afg_hostile_export (db, out_dir, &run);

  g_assert_cmpint (code, ==, 0);
  afg_hostile_run_clear (&run);
  /* Assertions are not fatal: later checks see an empty export. */
  if (code != 0 || !json_parser_load_from_mapped_file (parser, json, &error))
    {
      g_assert_no_error (error);
      g_clear_error (&error);
      json_parser_load_from_data (parser, "{\"stats\":{},\"threads\":[]}", -1, &error);
    }
  afg_test_rm_rf (out_dir);
  return json_node_ref (json_parser_get_root (parser));
}

gint64
afg_hostile_stat (JsonNode *root, const char *name)
{
  JsonObject *stats = json_object_get_object_member (json_node_get_object (root), "stats");

  return json_object_get_int_member_with_default (stats, name, -1);
}

const char *
afg_hostile_sample (const char *sample)
{
  static char *paths[2];
  guint i = strstr (sample, "level1") != NULL;

  if (paths[i] == NULL)
    paths[i] = g_build_filename (g_getenv ("AFG_SAMPLES_DIR"), sample, NULL);
  return paths[i];
}

char *
afg_hostile_sample_copy (const char *sample, gssize length)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  char *copy = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  gsize len;

  g_file_get_contents (afg_hostile_sample (sample), &data, &len, &error);
  g_assert_no_error (error);
  afg_test_write_file (copy, data, length < 0 ? (gssize) len : MIN (length, (gssize) len));
  return copy;
}

char *
afg_hostile_generate_db (const char *dir, const char *rows)
{
  const char *gen = g_getenv ("AFG_GEN_DB");
  g_autofree char *own_dir = dir ? NULL : afg_test_make_tmp_dir ();
  char *db = g_build_filename (dir ? dir : own_dir, "ascend_pytorch_profiler_big.db", NULL);
  g_autofree char *asan = g_strconcat (g_getenv ("ASAN_OPTIONS") ?: "", ":detect_leaks=0", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "ASAN_OPTIONS", asan, TRUE);
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (gen);
  /* The generator is a fixture, not under test: its leaks are not ours. */
  g_spawn_sync (NULL, (char *[]) { (char *) gen, db, (char *) rows, NULL }, env,
                G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return db;
}

void
afg_hostile_make_sparse (const char *path, gint64 size)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, size), ==, 0);
  close (fd);
}
