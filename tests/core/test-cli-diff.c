/* SPDX-License-Identifier: MIT */
/* `ascend-flamegraph --diff A.db B.db --export [-o DIR] [-f html|json|folded]
 * [--merge-addresses] [--steps A[-B]] [-q]`: the writers'
 * bytes, atomically, and the single export's error lines and exit codes. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "afg-diff-writers.h"
#include "afg-test-db.h"

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_WRITE_FAILED };

#define ERROR_PREFIX "ascend-flamegraph: error: "
#define HINT_PREFIX "ascend-flamegraph: hint: "
#define MAIN "train.py(1): main"
#define ITEM "<built-in method item of Tensor object at 0x"

typedef struct {
  AfgTestDb *a;
  AfgTestDb *b;
  char      *out_dir;
} Fixture;

/* A and B share main and add; only A has <module>, only B has copy_;
 * the item call has a different address on each side. Two steps each. */
static const AfgTestEvent a_events[] = {
  { GTID (10, 11), 0, 100, "ProfilerStep#1" },
  { GTID (10, 11), 100, 200, "ProfilerStep#2" },
  { GTID (10, 11), 0, 200, MAIN },
  { GTID (10, 11), 10, 60, "aten::add" },
  { GTID (10, 11), 120, 130, ITEM "ffff8342ae0>" },
  { GTID (10, 12), 0, 5, "<module>" },
};
static const AfgTestEvent b_events[] = {
  { GTID (20, 21), 0, 100, "ProfilerStep#1" },
  { GTID (20, 21), 100, 300, "ProfilerStep#2" },
  { GTID (20, 21), 0, 300, MAIN },
  { GTID (20, 21), 10, 40, "aten::add" },
  { GTID (20, 21), 150, 190, ITEM "aaaa0001>" },
  { GTID (20, 21), 200, 290, "aten::copy_" },
};

static AfgTestDb *
make_db (const AfgTestEvent *events, gsize n)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_add_events (db, events, n);
  afg_test_db_close (db);
  return db;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->a = make_db (a_events, G_N_ELEMENTS (a_events));
  f->b = make_db (b_events, G_N_ELEMENTS (b_events));
  f->out_dir = afg_test_make_tmp_dir ();
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  afg_test_rm_rf (f->out_dir);
  g_free (f->out_dir);
  afg_test_db_free (f->a);
  afg_test_db_free (f->b);
}

static AfgTree *
build (const char *path, const AfgScope *scope_steps, AfgTreeFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  AfgScope scope = { 0 };

  g_assert_no_error (error);
  if (scope_steps != NULL)
    g_assert_true (afg_scope_init_steps (&scope, document, scope_steps->first_step, scope_steps->last_step, &error));
  return afg_test_build (document, &scope, flags);
}

/* What the writers make of the two DBs, for the CLI's bytes to match. */
static char *
serialize (const char *a_path, const char *b_path, AfgFormat format, const AfgScope *steps, AfgTreeFlags flags)
{
  g_autoptr(AfgTree) a = build (a_path, steps, flags);
  g_autoptr(AfgTree) b = build (b_path, steps, flags);
  g_autoptr(AfgDiffShape) diff = afg_diff_shape_new (a, b, "diff", NULL);
  GString *out = g_string_new (NULL);

  if (format == AFG_FORMAT_JSON)
    afg_diff_json_write (diff, out);
  else
    afg_diff_folded_write (diff, out);
  return g_string_free (out, FALSE);
}

static int
run (const char * const *args, char **err)
{
  g_autofree char *out = NULL;
  int status = afg_test_run_cli (args, FALSE, &out, err);

  g_assert_cmpstr (out, ==, "");
  return status;
}

typedef struct {
  const char *format;
  const char *file_name;
  AfgFormat   afg_format;
} FormatCase;

static const FormatCase json_case = { "json", "flamegraph-diff.json", AFG_FORMAT_JSON };
static const FormatCase folded_case = { "folded", "flamegraph-diff.folded", AFG_FORMAT_FOLDED };

/* The writers' bytes; the summary names both DBs and the output. */
static void
test_format (Fixture *f, gconstpointer data)
{
  const FormatCase *c = data;
  const char *args[] = { "--diff", f->a->path, f->b->path, "--export", "-o", f->out_dir, "-f", c->format, NULL };
  g_autofree char *err = NULL;
  g_autofree char *written = NULL;
  g_autofree char *expected = serialize (f->a->path, f->b->path, c->afg_format, NULL, AFG_TREE_FLAGS_NONE);

  g_assert_cmpint (run (args, &err), ==, EXIT_OK);
  afg_test_assert_dir_holds (f->out_dir, c->file_name);
  written = afg_test_read_output (f->out_dir, c->file_name);
  g_assert_cmpstr (written, ==, expected);
  g_assert_null (strstr (err, "error"));
  g_assert_nonnull (strstr (err, ": A ascend_pytorch_profiler_0.db, B ascend_pytorch_profiler_0.db: 6 frames, 2 only in A, 2 only in B;"));
  g_assert_nonnull (strstr (err, c->file_name));
}

/* Without -f: the page, with the diff's data block and its own scripts. */
static void
test_html (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--diff", "--export", "-q", "-o", f->out_dir, f->a->path, f->b->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *page = NULL;

  g_assert_cmpint (run (args, &err), ==, EXIT_OK);
  g_assert_cmpstr (err, ==, "");
  afg_test_assert_dir_holds (f->out_dir, "flamegraph-diff.html");
  page = afg_test_read_output (f->out_dir, "flamegraph-diff.html");
  g_assert_true (g_str_has_prefix (page, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (page, "{\"format\":\"ascend-flamegraph-diff\",\"version\":1,\"encoding\":\"compact-diff-1\""));
  g_assert_nonnull (strstr (page, "const AFG_DIFF_COLOR"));
  g_assert_null (strstr (page, "@AFG_"));
}

/* Off by default; on, the two addresses of the item call are one frame
 * that both sides have. */
static void
test_merge_addresses (Fixture *f, gconstpointer data)
{
  const char *plain_args[] = { "--diff", "--export", "-q", "-f", "folded", "-o", f->out_dir,
                               f->a->path, f->b->path, NULL };
  const char *merged_args[] = { "--diff", "--export", "-q", "-f", "folded", "--merge-addresses", "-o", f->out_dir,
                                f->a->path, f->b->path, NULL };
  g_autofree char *plain = NULL;
  g_autofree char *merged = NULL;
  g_autofree char *expected = serialize (f->a->path, f->b->path, AFG_FORMAT_FOLDED, NULL, AFG_TREE_MERGE_ADDRESSES);

  g_assert_cmpint (run (plain_args, NULL), ==, EXIT_OK);
  plain = afg_test_read_output (f->out_dir, "flamegraph-diff.folded");
  g_assert_nonnull (strstr (plain, MAIN ";" ITEM "ffff8342ae0> 10 0\n"));
  g_assert_nonnull (strstr (plain, MAIN ";" ITEM "aaaa0001> 0 40\n"));
  g_assert_cmpint (run (merged_args, NULL), ==, EXIT_OK);
  merged = afg_test_read_output (f->out_dir, "flamegraph-diff.folded");
  g_assert_cmpstr (merged, ==, expected);
  g_assert_nonnull (strstr (merged, MAIN ";" ITEM "\xe2\x80\xa6> 10 40\n"));
}

/* --steps applies to both sides, and each side's scope is in the JSON. */
static void
test_steps (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--diff", "--export", "-q", "-f", "json", "--steps", "2", "-o", f->out_dir,
                         f->a->path, f->b->path, NULL };
  AfgScope two = { .first_step = 2, .last_step = 2 };
  g_autofree char *written = NULL;
  g_autofree char *expected = serialize (f->a->path, f->b->path, AFG_FORMAT_JSON, &two, AFG_TREE_FLAGS_NONE);

  g_assert_cmpint (run (args, NULL), ==, EXIT_OK);
  written = afg_test_read_output (f->out_dir, "flamegraph-diff.json");
  g_assert_cmpstr (written, ==, expected);
  g_assert_nonnull (strstr (written, "\"scope\":{\"steps\":[2,2],\"start_ns\":100,\"end_ns\":200}},\"b\""));
  g_assert_nonnull (strstr (written, "\"scope\":{\"steps\":[2,2],\"start_ns\":100,\"end_ns\":300}},\"options\""));
  /* Step 1 is cut away: add (10–60 in A) is not in the diff. */
  g_assert_null (strstr (written, "aten::add"));
}

/* A DB against itself: both columns equal on every line. */
static void
test_against_itself (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--diff", "--export", "-q", "-f", "folded", "-o", f->out_dir, f->b->path, f->b->path, NULL };
  g_autofree char *written = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (run (args, NULL), ==, EXIT_OK);
  written = afg_test_read_output (f->out_dir, "flamegraph-diff.folded");
  lines = g_strsplit (written, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  for (guint i = 0; lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) fields = g_strsplit (strrchr (lines[i], ';') ? strrchr (lines[i], ';') : lines[i], " ", -1);
      guint n = g_strv_length (fields);

      g_assert_cmpstr (fields[n - 1], ==, fields[n - 2]);
    }
}

/* A side without usable rows: a warning, and the other side's frames
 * with zeros for it. */
static void
test_empty_side (Fixture *f, gconstpointer data)
{
  static const AfgTestEvent steps_only[] = { { GTID (1, 1), 0, 100, "ProfilerStep#1" } };
  AfgTestDb *empty = make_db (steps_only, G_N_ELEMENTS (steps_only));
  const char *args[] = { "--diff", "--export", "-f", "folded", "-o", f->out_dir, empty->path, f->b->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *written = NULL;

  g_assert_cmpint (run (args, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, "ascend-flamegraph: A ascend_pytorch_profiler_0.db: warning: "));
  written = afg_test_read_output (f->out_dir, "flamegraph-diff.folded");
  g_assert_nonnull (strstr (written, MAIN " 0 140\n"));
  g_assert_nonnull (strstr (written, MAIN ";aten::copy_ 0 90\n"));
  afg_test_db_free (empty);
}

/* Exit 2, two lines, nothing written. */
static void
test_usage (Fixture *f, gconstpointer data)
{
  const char *a = f->a->path, *b = f->b->path, *o = f->out_dir;
  const char * const cases[][10] = {
    { "--diff", "--export", "-o", o, a, NULL },
    { "--diff", "--export", "-o", o, a, b, a, NULL },
    { "--diff", "--export", "-o", o, "-f", "trace", a, b, NULL },
    { "--diff", "--export", "-o", o, "-f", "xml", a, b, NULL },
    { "--diff", "--export", "-o", o, "-f", "Summary", a, b, NULL },
    { "--diff", "--export", "-o", o, "--weight", "gpu", a, b, NULL },
    { "--diff", "--export", "-o", o, "--weight", "compute", "--kernels", a, b, NULL },
    { "--diff", "--export", "-o", o, "--top", "3", a, b, NULL },
    { "--diff", "--export", "-o", o, "--steps", "x", a, b, NULL },
    { "--diff", "-o", o, a, b, NULL },
    { "--diff", "-f", "json", a, b, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_test_message ("usage case %u", i);
      g_assert_cmpint (run (cases[i], &err), ==, EXIT_USAGE);
      afg_test_assert_error_and_hint (err);
      afg_test_assert_dir_holds (o, NULL);
      /* A format the tool writes elsewhere is named, not called unknown. */
      if (i == 2 || i == 4)
        g_assert_nonnull (strstr (err, "not a diff"));
    }
}

/* Either side unreadable, or without the steps asked for: exit 1, the
 * error names that side's file, nothing is written. */
static void
test_bad_side (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->out_dir, "missing.db", NULL);
  g_autofree char *out = g_build_filename (f->out_dir, "out", NULL);
  const char * const cases[][10] = {
    { "--diff", "--export", "-o", out, missing, f->b->path, NULL },
    { "--diff", "--export", "-o", out, f->a->path, missing, NULL },
    { "--diff", "--export", "-o", out, "--steps", "3", f->a->path, f->b->path, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_test_message ("bad side %u", i);
      g_assert_cmpint (run (cases[i], &err), ==, EXIT_BAD_INPUT);
      afg_test_assert_error_and_hint (err);
      g_assert_nonnull (strstr (err, i == 2 ? f->a->path : missing));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

/* -o a file, the output name a directory, or the output one of the DBs:
 * exit 3 and nothing is touched. */
static void
test_cannot_write (Fixture *f, gconstpointer data)
{
  g_autofree char *file = g_build_filename (f->out_dir, "plain-file", NULL);
  g_autofree char *target = g_build_filename (f->out_dir, "flamegraph-diff.json", NULL);
  g_autofree char *b_dir = g_path_get_dirname (f->b->path);
  g_autofree char *b_copy = NULL;
  g_autofree char *b_bytes = NULL;
  const char *to_file[] = { "--diff", "--export", "-o", file, f->a->path, f->b->path, NULL };
  const char *to_dir[] = { "--diff", "--export", "-f", "json", "-o", f->out_dir, f->a->path, f->b->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *err3 = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *renamed = g_build_filename (b_dir, "flamegraph-diff.json", NULL);
  const char *over_db[] = { "--diff", "--export", "-f", "json", "-o", b_dir, f->a->path, renamed, NULL };

  afg_test_write_file (file, "keep me", -1);
  g_assert_cmpint (run (to_file, &err), ==, EXIT_WRITE_FAILED);
  afg_test_assert_error_and_hint (err);
  kept = afg_test_read_output (f->out_dir, "plain-file");
  g_assert_cmpstr (kept, ==, "keep me");
  g_assert_cmpint (g_mkdir (target, 0755), ==, 0);
  g_assert_cmpint (run (to_dir, &err2), ==, EXIT_WRITE_FAILED);
  afg_test_assert_error_and_hint (err2);
  /* B named as the output: never overwritten. */
  g_assert_cmpint (g_rename (f->b->path, renamed), ==, 0);
  g_file_get_contents (renamed, &b_copy, NULL, NULL);
  g_assert_cmpint (run (over_db, &err3), ==, EXIT_WRITE_FAILED);
  afg_test_assert_error_and_hint (err3);
  g_assert_nonnull (strstr (err3, "never overwritten"));
  g_file_get_contents (renamed, &b_bytes, NULL, NULL);
  g_assert_true (b_copy != NULL && b_bytes != NULL && memcmp (b_copy, b_bytes, 16) == 0);
  g_assert_cmpint (g_rename (renamed, f->b->path), ==, 0);
}

/* The help names --diff and both of its forms. */
static void
test_help (void)
{
  const char *args[] = { "--help", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (out, "--diff A.db B.db\n"));
  g_assert_nonnull (strstr (out, "--diff A.db B.db --export [-o DIR] [-f html|json|folded]"));
}

static void
add (const char *path, gconstpointer data, void (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, data, fixture_set_up, func, fixture_tear_down);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add ("/cli-diff/json", &json_case, test_format);
  add ("/cli-diff/folded", &folded_case, test_format);
  add ("/cli-diff/html", NULL, test_html);
  add ("/cli-diff/merge-addresses", NULL, test_merge_addresses);
  add ("/cli-diff/steps", NULL, test_steps);
  add ("/cli-diff/against-itself", NULL, test_against_itself);
  add ("/cli-diff/empty-side", NULL, test_empty_side);
  add ("/cli-diff/usage", NULL, test_usage);
  add ("/cli-diff/bad-side", NULL, test_bad_side);
  add ("/cli-diff/cannot-write", NULL, test_cannot_write);
  g_test_add_func ("/cli-diff/help", test_help);
  return g_test_run ();
}
