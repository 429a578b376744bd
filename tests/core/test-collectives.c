/* SPDX-License-Identifier: MIT */
/* Collectives matched across a job's ranks: the rules on summaries made
 * by hand, then generated jobs (tools/afg-gen-db) through the CLI, the
 * folder export and map/reduce (-f summary, --merge-summaries) byte for
 * byte. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "afg-frame-reducer.h"
#include "afg-job-collectives.h"
#include "afg-job-folder.h"
#include "afg-ranks-writer.h"
#include "afg-summary-file.h"
#include "afg-test-db.h"
#include "afg-tree-builder.h"

#define LATE_NS 3000000
#define JOB_ROWS "20000"

/* Rule tests: ranks 0..n-1, each with the collectives given. */
static AfgRankSummary **
make_ranks (guint n)
{
  AfgRankSummary **ranks = g_new0 (AfgRankSummary *, n);

  for (guint i = 0; i < n; i++)
    ranks[i] = afg_rank_summary_new ((int) i, "x.db");
  return ranks;
}

static void
free_ranks (AfgRankSummary **ranks, guint n)
{
  for (guint i = 0; i < n; i++)
    afg_rank_summary_free (ranks[i]);
  g_free (ranks);
}

/* Spread 50 µs at most 1 ms qualifies; 49,999 ns does not; a spread under
 * a twentieth of the longest does not. */
static void
test_thresholds (void)
{
  AfgRankSummary **ranks = make_ranks (2);
  g_autoptr(AfgJobCollectives) c = NULL;

  afg_rank_summary_add_collective (ranks[0], "g", "a", 1000000);
  afg_rank_summary_add_collective (ranks[1], "g", "a", 950000);
  afg_rank_summary_add_collective (ranks[0], "g", "b", 1000000);
  afg_rank_summary_add_collective (ranks[1], "g", "b", 950001);
  afg_rank_summary_add_collective (ranks[0], "g", "c", 1000001);
  afg_rank_summary_add_collective (ranks[1], "g", "c", 950001);
  afg_rank_summary_add_collective (ranks[0], "g", "d", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "d", 1900000);
  c = afg_job_collectives_new (ranks, 2);
  g_assert_cmpuint (c->matched->len, ==, 4);
  g_assert_true (g_array_index (c->matched, AfgMatchedCollective, 0).qualifies);   /* a */
  g_assert_false (g_array_index (c->matched, AfgMatchedCollective, 1).qualifies);  /* b: 49,999 */
  g_assert_false (g_array_index (c->matched, AfgMatchedCollective, 2).qualifies);  /* c: 20 × 50,000 < 1,000,001 */
  g_assert_true (g_array_index (c->matched, AfgMatchedCollective, 3).qualifies);   /* d */
  g_assert_cmpuint (c->n_qualifying, ==, 2);
  g_assert_cmpint (c->wait_ns[0], ==, 50000 + 49999 + 50000 + 100000);
  g_assert_cmpint (c->wait_ns[1], ==, 0);
  g_assert_cmpuint (c->last_arrivals[1], ==, 2);
  g_assert_cmpuint (c->took_part[0], ==, 2);
  g_assert_cmpint (c->straggler, ==, 1);
  free_ranks (ranks, 2);
}

/* Twice on one rank, or missing on one of the group's ranks: not matched;
 * a group of one rank matches nothing; an opName that is no string only
 * makes the rank one of the group's. */
static void
test_matching (void)
{
  AfgRankSummary **ranks = make_ranks (3);
  g_autoptr(AfgJobCollectives) c = NULL;

  for (guint i = 0; i < 3; i++)
    afg_rank_summary_add_collective (ranks[i], "dp", "once", 100);
  afg_rank_summary_add_collective (ranks[0], "dp", "twice", 100);
  afg_rank_summary_add_collective (ranks[0], "dp", "twice", 100);
  afg_rank_summary_add_collective (ranks[1], "dp", "twice", 100);
  afg_rank_summary_add_collective (ranks[2], "dp", "twice", 100);
  afg_rank_summary_add_collective (ranks[0], "dp", "missing", 100);
  afg_rank_summary_add_collective (ranks[1], "dp", "missing", 100);
  afg_rank_summary_add_collective (ranks[0], "alone", "x", 100);
  afg_rank_summary_add_collective (ranks[0], "tp", "y", 100);
  afg_rank_summary_add_collective (ranks[1], "tp", "y", 100);
  afg_rank_summary_add_collective (ranks[2], "tp", NULL, 100);
  c = afg_job_collectives_new (ranks, 3);
  g_assert_cmpuint (c->matched->len, ==, 1);
  g_assert_cmpstr (g_array_index (c->matched, AfgMatchedCollective, 0).op, ==, "once");
  g_assert_cmpint (c->straggler, ==, -1);
  free_ranks (ranks, 3);
}

/* The verdict the page and the window's job view both say. */
static void
assert_verdict (const AfgJobCollectives *c, AfgRankSummary **ranks, const char *expected)
{
  g_autofree char *verdict = afg_job_collectives_verdict (c, ranks);

  g_assert_cmpstr (verdict, ==, expected);
}

/* The straggler needs more than half of the qualifying collectives it took
 * part in; equal shares go to the lowest rank; ties at the minimum give
 * every such rank a last arrival. */
static void
test_votes (void)
{
  AfgRankSummary **ranks = make_ranks (3);
  g_autoptr(AfgJobCollectives) half = NULL;
  g_autoptr(AfgJobCollectives) tie = NULL;

  /* Rank 2 last at a, rank 1 at b: each 1 of 2, not above one half. */
  afg_rank_summary_add_collective (ranks[0], "g", "a", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "a", 2000000);
  afg_rank_summary_add_collective (ranks[2], "g", "a", 1000000);
  afg_rank_summary_add_collective (ranks[0], "g", "b", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "b", 1000000);
  afg_rank_summary_add_collective (ranks[2], "g", "b", 2000000);
  half = afg_job_collectives_new (ranks, 3);
  g_assert_cmpuint (half->last_arrivals[1], ==, 1);
  g_assert_cmpuint (half->took_part[1], ==, 2);
  g_assert_cmpint (half->straggler, ==, -1);
  /* c: ranks 1 and 2 both at the minimum: 2 of 3 each, rank 1 wins. */
  afg_rank_summary_add_collective (ranks[0], "g", "c", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "c", 1000000);
  afg_rank_summary_add_collective (ranks[2], "g", "c", 1000000);
  tie = afg_job_collectives_new (ranks, 3);
  g_assert_cmpuint (tie->last_arrivals[1], ==, 2);
  g_assert_cmpuint (tie->last_arrivals[2], ==, 2);
  g_assert_cmpint (tie->straggler, ==, 1);
  g_assert_cmpint (tie->wait_ns[0], ==, 3000000);
  assert_verdict (half, ranks, "The ranks are balanced: no rank came last at more than half of the "
                  "qualifying collectives it took part in (2 qualifying of 2 matched).");
  assert_verdict (tie, ranks, "Straggler: rank 1. others waited 2.00 ms for rank 1 at 2 of 3 collectives.");
  free_ranks (ranks, 3);
}

/* One collective: its straggler's words take the singular. */
static void
test_one_collective (void)
{
  AfgRankSummary **ranks = make_ranks (2);
  g_autoptr(AfgJobCollectives) c = NULL;

  afg_rank_summary_add_collective (ranks[0], "g", "a", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "a", 1000000);
  c = afg_job_collectives_new (ranks, 2);
  g_assert_cmpint (c->straggler, ==, 1);
  assert_verdict (c, ranks, "Straggler: rank 1. others waited 1.00 ms for rank 1 at 1 of 1 collective.");
  free_ranks (ranks, 2);
}

/* A failed rank's collectives are those its DB holds: one that failed
 * only for its scope is matched as ever; one that could not be read has
 * none, and a group of it and one other matches nothing. */
static void
test_failed_rank (void)
{
  AfgRankSummary **ranks = make_ranks (2);
  g_autoptr(AfgJobCollectives) c = NULL;
  g_autoptr(AfgJobCollectives) unread = NULL;

  afg_rank_summary_add_collective (ranks[0], "g", "a", 2000000);
  afg_rank_summary_add_collective (ranks[1], "g", "a", 1000000);
  ranks[1]->error = g_strdup ("no step 3");
  c = afg_job_collectives_new (ranks, 2);
  g_assert_cmpuint (c->matched->len, ==, 1);
  g_assert_cmpint (c->straggler, ==, 1);
  /* Named, but with no command to compare it in steps it lacks (rank 0,
   * with a device timeline, would be the reference). */
  ranks[0]->has_device = TRUE;
  {
    g_autoptr(AfgJobFigures) figures = afg_job_figures_new (ranks, 2);
    g_autofree char *index = afg_ranks_index_write (ranks, 2, figures, NULL);

    g_assert_nonnull (strstr (index, "Straggler: rank 1."));
    g_assert_null (strstr (index, "id=\"explain\""));
  }
  g_array_set_size (ranks[1]->collectives, 0);
  unread = afg_job_collectives_new (ranks, 2);
  g_assert_cmpuint (unread->matched->len, ==, 0);
  assert_verdict (unread, ranks, "No collective matched across ranks: no rank can be told to be the one the "
                  "others wait for.");
  free_ranks (ranks, 2);
}

/* The reducer keeps of each rank the frames the index shows: the figures
 * pick the same frames, with the same totals, as from the whole tables
 * (30 names on 3 ranks, some missing, ties in spread broken by name). */
static void
test_reducer (void)
{
  AfgRankSummary **whole = make_ranks (3);
  AfgRankSummary **reduced = make_ranks (3);
  g_autoptr(AfgFrameReducer) reducer = afg_frame_reducer_new ();
  g_autoptr(AfgJobFigures) want = NULL;
  g_autoptr(AfgJobFigures) got = NULL;

  for (guint i = 0; i < 3; i++)
    for (guint f = 0; f < 30; f++)
      {
        g_autofree char *name = g_strdup_printf ("frame%02u", f);
        gint64 ns = (gint64) ((f * 7919 + i * 104729) % 1000) * (f % 3 == 0 ? 1 : 1000);

        if ((f + i) % 5 == 0)
          continue;
        g_hash_table_insert (whole[i]->frames, g_strdup (name), g_memdup2 (&ns, sizeof ns));
        afg_frame_reducer_add (reducer, reduced[i], name, ns);
      }
  afg_frame_reducer_finish (reducer, reduced, 3);
  want = afg_job_figures_new (whole, 3);
  got = afg_job_figures_new (reduced, 3);
  g_assert_cmpuint (g_strv_length (want->frames), ==, AFG_RANK_MAX_VARYING_FRAMES);
  g_assert_cmpstrv (got->frames, want->frames);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpuint (g_hash_table_size (reduced[i]->frames), <=, AFG_RANK_MAX_VARYING_FRAMES);
      for (guint f = 0; want->frames[f] != NULL; f++)
        g_assert_cmpint (afg_rank_summary_frame_ns (reduced[i], want->frames[f]), ==,
                         afg_rank_summary_frame_ns (whole[i], want->frames[f]));
    }
  free_ranks (whole, 3);
  free_ranks (reduced, 3);
}

/* Generated jobs. */

static char *
rank_path (const char *job, int rank)
{
  g_autofree char *folder = g_strdup_printf ("host_%d_20261204000000000_ascend_pt", rank);
  g_autofree char *name = g_strdup_printf ("ascend_pytorch_profiler_%d.db", rank);
  g_autofree char *dir = g_build_filename (job, folder, "ASCEND_PROFILER_OUTPUT", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return g_build_filename (dir, name, NULL);
}

/* Rank @rank of a job of @ranks at @path with @options (space-separated). */
static void
generate_at (const char *path, int rank, int ranks, const char *options)
{
  g_autofree char *rank_text = g_strdup_printf ("%d", rank);
  g_autofree char *ranks_text = g_strdup_printf ("%d", ranks);
  g_auto(GStrv) extra = g_strsplit (options, " ", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_strv_builder_add_many (builder, g_getenv ("AFG_GEN_DB"), "--rank", rank_text, "--ranks", ranks_text,
                           "--tp", "2", "--steps", "3", "--collectives", "6", NULL);
  for (guint i = 0; extra[i] != NULL; i++)
    if (*extra[i] != '\0')
      g_strv_builder_add (builder, extra[i]);
  g_strv_builder_add_many (builder, path, JOB_ROWS, NULL);
  argv = g_strv_builder_end (builder);
  g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
}

static void
generate (const char *job, int rank, int ranks, const char *options)
{
  g_autofree char *path = rank_path (job, rank);

  generate_at (path, rank, ranks, options);
}

static JsonNode *
export_job (const char *job, const char *out)
{
  const char *args[] = { "--export", "-q", "-o", out, job, NULL };
  g_autofree char *path = g_build_filename (out, "ranks.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  return root;
}

static JsonObject *
rank_entry (JsonNode *root, guint i)
{
  return json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "ranks"), i);
}

static gint64
entry_int (JsonNode *root, guint i, const char *name)
{
  return json_object_get_int_member (rank_entry (root, i), name);
}

/* The rank's COMMUNICATION_OP rows @where (o: the row, s: its groupName's string). */
static gint64
count_ops (const char *job, int rank, const char *where)
{
  g_autofree char *path = rank_path (job, rank);
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM COMMUNICATION_OP o JOIN STRING_IDS s"
                                          " ON s.id = o.groupName WHERE %s", where);

  return afg_test_query_int (path, sql);
}

static gint64
comm_sum (const char *job, int rank)
{
  g_autofree char *path = rank_path (job, rank);

  return afg_test_query_int (path, "SELECT total(endNs - startNs) FROM COMMUNICATION_OP");
}

/* The rank of ranks.json @root nearest the median compute time (the mean
 * of the middle two of the four), not @straggler, ties to the lowest. */
static int
reference_of (JsonNode *root, int straggler)
{
  gint64 compute[4], sorted[4];
  int best = -1;

  for (int i = 0; i < 4; i++)
    compute[i] = sorted[i] = json_object_get_int_member (json_object_get_object_member (rank_entry (root, i), "device"),
                                                         "compute_ns");
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++)
      if (sorted[j] < sorted[i])
        {
          gint64 t = sorted[i];

          sorted[i] = sorted[j];
          sorted[j] = t;
        }
  for (int i = 0; i < 4; i++)
    if (i != straggler && (best < 0 || ABS (2 * compute[i] - sorted[1] - sorted[2])
                                       < ABS (2 * compute[best] - sorted[1] - sorted[2])))
      best = i;
  return best;
}

/* The collectives use every row whatever --steps, so a rank that lacks
 * the step asked for (it fails, exit 1) still brings its own: the job's
 * figures and each rank's comm_ns, comm_wait_ns and last arrivals are
 * those of the export without --steps. */
static void
test_failed_scope (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *all_out = afg_test_make_tmp_dir ();
  g_autofree char *step_out = afg_test_make_tmp_dir ();
  g_autofree char *late = g_strdup_printf ("--late-rank 0 --late-ns %d", LATE_NS);
  g_autofree char *short_late = g_strdup_printf ("--steps 2 %s", late);
  g_autofree char *path = g_build_filename (step_out, "ranks.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) all = NULL;
  g_autoptr(JsonNode) stepped = NULL;
  const char *args[] = { "--export", "-q", "--steps", "2", "-o", step_out, job, NULL };
  const char *job_members[] = { "collectives", "straggler" };
  const char *rank_members[] = { "comm_ns", "comm_wait_ns", "last_arrivals", "is_straggler" };

  generate (job, 0, 2, late);
  generate (job, 1, 2, short_late);
  all = export_job (job, all_out);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (all), "straggler"), ==, 0);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 1);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  stepped = json_from_string (text, NULL);
  g_assert_false (json_object_get_null_member (rank_entry (stepped, 1), "error"));
  for (guint i = 0; i < G_N_ELEMENTS (job_members); i++)
    g_assert_true (json_node_equal (json_object_get_member (json_node_get_object (all), job_members[i]),
                                    json_object_get_member (json_node_get_object (stepped), job_members[i])));
  for (guint r = 0; r < 2; r++)
    for (guint i = 0; i < G_N_ELEMENTS (rank_members); i++)
      g_assert_true (json_node_equal (json_object_get_member (rank_entry (all, r), rank_members[i]),
                                      json_object_get_member (rank_entry (stepped, r), rank_members[i])));
  afg_test_rm_rf (job);
  afg_test_rm_rf (all_out);
  afg_test_rm_rf (step_out);
}

/* Four ranks, tensor-parallel pairs 0-1 and 2-3 and one data-parallel
 * group; rank 1 arrives LATE_NS late: ranks 0, 2 and 3 wait that long at
 * each collective they share with it, rank 1 came last at all of its
 * qualifying collectives, and ranks 2 and 3's pair is balanced. */
static void
test_late_rank (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *index = NULL;
  g_autofree char *late = g_strdup_printf ("--late-rank 1 --late-ns %d", LATE_NS);
  JsonObject *top;
  gint64 dp, tp01, tp23;

  for (int rank = 0; rank < 4; rank++)
    generate (job, rank, 4, late);
  root = export_job (job, out);
  top = json_node_get_object (root);
  /* Every rank's rows of the group all four ranks share, and of its pair. */
  tp01 = count_ops (job, 0, "o.groupName = (SELECT groupName FROM COMMUNICATION_OP WHERE opId = 1)");
  tp23 = count_ops (job, 2, "o.groupName = (SELECT groupName FROM COMMUNICATION_OP WHERE opId = 1)");
  dp = count_ops (job, 0, "1") - tp01;
  g_assert_cmpint (dp, >, 0);
  g_assert_cmpint (tp01, >, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "collectives"), "matched"), ==,
                   dp + tp01 + tp23);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "collectives"), "qualifying"),
                   ==, dp + tp01);
  g_assert_cmpint (json_object_get_int_member (top, "straggler"), ==, 1);
  g_assert_cmpint (entry_int (root, 0, "comm_wait_ns"), ==, LATE_NS * (dp + tp01));
  g_assert_cmpint (entry_int (root, 1, "comm_wait_ns"), ==, 0);
  g_assert_cmpint (entry_int (root, 2, "comm_wait_ns"), ==, LATE_NS * dp);
  g_assert_cmpint (entry_int (root, 3, "comm_wait_ns"), ==, LATE_NS * dp);
  g_assert_cmpint (entry_int (root, 1, "last_arrivals"), ==, dp + tp01);
  for (int rank = 0; rank < 4; rank++)
    {
      g_assert_cmpint (entry_int (root, rank, "comm_ns"), ==, comm_sum (job, rank));
      g_assert_cmpint (json_object_get_boolean_member (rank_entry (root, rank), "is_straggler"), ==, rank == 1);
      if (rank != 1)
        g_assert_cmpint (entry_int (root, rank, "last_arrivals"), ==, 0);
    }
  index = afg_test_read_output (out, "index.html");
  {
    g_autofree char *why = g_strdup_printf ("others waited %.2f ms for rank 1 at %" G_GINT64_FORMAT " of %"
                                            G_GINT64_FORMAT " collectives", LATE_NS * (dp + tp01) / 1e6,
                                            dp + tp01, dp + tp01);

    g_autofree char *said = g_strdup_printf ("ascend-flamegraph: Straggler: rank 1. %s.\n", why);
    g_autofree char *again = afg_test_make_tmp_dir ();
    const char *args[] = { "--export", "-f", "json", "-o", again, job, NULL };
    g_autofree char *err = NULL;

    g_assert_nonnull (strstr (index, why));
    /* The command line ends with the index's verdict. */
    g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 0);
    g_assert_true (g_str_has_suffix (err, said));
    afg_test_rm_rf (again);
  }
  g_assert_nonnull (strstr (index, "<tr class=\"straggler\"><td><a href=\"rank1/flamegraph.html\">"));
  {
    g_autofree char *command = g_strdup_printf ("<code id=\"explain\">ascend-flamegraph --diff &apos;%s&apos; &apos;%s&apos; --export"
                                                " --weight compute --merge-addresses</code>",
                                                json_object_get_string_member (rank_entry (root, reference_of (root, 1)),
                                                                               "file"),
                                                json_object_get_string_member (rank_entry (root, 1), "file"));

    g_assert_nonnull (strstr (index, command));
  }
  g_assert_nonnull (strstr (index, "<table id=\"collectives\">"));
  /* Scoped to steps, the comparison command keeps them. */
  {
    g_autofree char *stepped_out = afg_test_make_tmp_dir ();
    g_autofree char *stepped = NULL;
    const char *args[] = { "--export", "-q", "--steps", "1-2", "-o", stepped_out, job, NULL };

    g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
    stepped = afg_test_read_output (stepped_out, "index.html");
    g_assert_nonnull (strstr (stepped, " --export --weight compute --merge-addresses --steps 1-2</code>"));
    afg_test_rm_rf (stepped_out);
  }
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* No late rank: every collective matches with equal durations. */
static void
test_balanced (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *index = NULL;
  JsonObject *top;

  for (int rank = 0; rank < 4; rank++)
    generate (job, rank, 4, "");
  root = export_job (job, out);
  top = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "collectives"), "matched"), >, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "collectives"), "qualifying"),
                   ==, 0);
  g_assert_true (json_object_get_null_member (top, "straggler"));
  for (int rank = 0; rank < 4; rank++)
    g_assert_cmpint (entry_int (root, rank, "comm_wait_ns"), ==, 0);
  index = afg_test_read_output (out, "index.html");
  g_assert_nonnull (strstr (index, "The ranks are balanced"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* Rank 3 without COMMUNICATION_OP and rank 2 missing one data-parallel
 * collective (opId 4: step 0's first data-parallel one): rank 3 is in no
 * group, the dropped collective matches nowhere, rank 1 is still the
 * straggler; the pair 2-3 has a single rank and matches nothing. */
static void
test_missing (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *late = g_strdup_printf ("--late-rank 1 --late-ns %d", LATE_NS);
  g_autofree char *dropped = g_strdup_printf ("%s --drop-collective 3", late);
  g_autofree char *no_op = g_strdup_printf ("%s --no-comm-op", late);
  JsonObject *top;
  gint64 all, tp01;

  generate (job, 0, 4, late);
  generate (job, 1, 4, late);
  generate (job, 2, 4, dropped);
  generate (job, 3, 4, no_op);
  root = export_job (job, out);
  top = json_node_get_object (root);
  tp01 = count_ops (job, 0, "o.groupName = (SELECT groupName FROM COMMUNICATION_OP WHERE opId = 1)");
  all = count_ops (job, 0, "1");
  g_assert_cmpint (entry_int (root, 3, "comm_ns"), ==, 0);
  g_assert_cmpint (entry_int (root, 3, "comm_wait_ns"), ==, 0);
  /* The data-parallel ones less the dropped one, and the pair 0-1's. */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (top, "collectives"), "matched"), ==,
                   all - 1);
  g_assert_cmpint (entry_int (root, 0, "comm_wait_ns"), ==, LATE_NS * (all - 1));
  g_assert_cmpint (entry_int (root, 2, "comm_wait_ns"), ==, LATE_NS * (all - tp01 - 1));
  g_assert_cmpint (json_object_get_int_member (top, "straggler"), ==, 1);
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* Ranks without collectives: the page says no collective matched. */
static void
test_none_matched (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *index = NULL;

  generate (job, 0, 2, "--no-comm-op");
  generate (job, 1, 2, "--no-comm-op");
  root = export_job (job, out);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (root),
                                                                              "collectives"), "matched"), ==, 0);
  g_assert_true (json_object_get_null_member (json_node_get_object (root), "straggler"));
  index = afg_test_read_output (out, "index.html");
  g_assert_nonnull (strstr (index, "No collective matched across ranks"));
  afg_test_rm_rf (job);
  afg_test_rm_rf (out);
}

/* Rank @rank's summary, its job folder named @root (@job by default). */
static int
summarise_below (const char *job, const char *root, int rank, const char *out, const char *option)
{
  g_autofree char *db = rank_path (job, rank);
  const char *args[] = { "--export", "-q", "-f", "summary", "--job-root", root, "-o", out, db, option, NULL };

  return afg_test_run_cli (args, FALSE, NULL, NULL);
}

static int
summarise (const char *job, int rank, const char *out, const char *option)
{
  return summarise_below (job, job, rank, out, option);
}

static char *
summary_of (const char *dir, int rank)
{
  g_autofree char *name = g_strdup_printf ("summary-rank%d.json", rank);

  return g_build_filename (dir, name, NULL);
}

static void
assert_same_file (const char *a_dir, const char *b_dir, const char *name)
{
  g_autofree char *a = afg_test_read_output (a_dir, name);
  g_autofree char *b = afg_test_read_output (b_dir, name);

  g_assert_cmpstr (a, ==, b);
}

/* -f takes its value in any case, summary as much as json: rank 0's
 * summary made with -f SUMMARY is the one in @sums. */
static void
assert_summary_in_any_case (const char *job, const char *root, const char *sums)
{
  g_autofree char *upper = afg_test_make_tmp_dir ();
  g_autofree char *db = rank_path (job, 0);
  const char *args[] = { "--export", "-q", "-f", "SUMMARY", "--job-root", root, "-o", upper, db, NULL };

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
  assert_same_file (sums, upper, "summary-rank0.json");
  afg_test_rm_rf (upper);
}

/* The folder's ranks.json and index.html, and the merge of its ranks'
 * summaries (given in any order), byte for byte; with a failed rank. */
/* With @data, the job folder is named relative to the CLI's working
 * directory (/) and with a trailing slash, as a shell completes it: the
 * files and a failed rank's error still name it the same in both. */
static void
test_map_reduce (gconstpointer data)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *root = data != NULL ? g_strconcat (job + 1, "/", NULL) : g_strdup (job);
  g_autofree char *folder_out = afg_test_make_tmp_dir ();
  g_autofree char *sums = afg_test_make_tmp_dir ();
  g_autofree char *merged = afg_test_make_tmp_dir ();
  g_autofree char *summary = NULL;
  g_autofree char *ranks = NULL;
  g_autofree char *late = g_strdup_printf ("--late-rank 2 --late-ns %d", LATE_NS);
  g_autofree char *s0 = NULL, *s1 = NULL, *s2 = NULL, *s3 = NULL;
  g_autofree char *broken = NULL;
  const char *folder_args[] = { "--export", "-q", "-o", folder_out, root, NULL };
  g_autofree char *err = NULL;

  g_assert_true (g_path_is_absolute (job));
  for (int rank = 0; rank < 3; rank++)
    generate (job, rank, 4, late);
  broken = rank_path (job, 3);
  afg_test_write_file (broken, "not a database", -1);
  g_assert_cmpint (afg_test_run_cli (folder_args, FALSE, NULL, NULL), ==, 1);
  ranks = afg_test_read_output (folder_out, "ranks.json");
  g_assert_nonnull (strstr (ranks, "\"file\":\"host_0_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/"));
  for (int rank = 0; rank < 3; rank++)
    g_assert_cmpint (summarise_below (job, root, rank, sums, NULL), ==, 0);
  g_assert_cmpint (summarise_below (job, root, 3, sums, NULL), ==, 1);
  assert_summary_in_any_case (job, root, sums);
  s0 = summary_of (sums, 0);
  s1 = summary_of (sums, 1);
  s2 = summary_of (sums, 2);
  s3 = summary_of (sums, 3);
  {
    const char *all[] = { "--merge-summaries", "-q", "-o", merged, s3, s1, s2, s0, NULL };

    g_assert_cmpint (afg_test_run_cli (all, FALSE, NULL, &err), ==, 1);
    g_assert_nonnull (strstr (err, "rank 3: "));
  }
  assert_same_file (folder_out, merged, "ranks.json");
  assert_same_file (folder_out, merged, "index.html");
  summary = afg_test_read_output (sums, "summary-rank3.json");
  g_assert_nonnull (strstr (summary, "\"error\":\""));
  afg_test_rm_rf (job);
  afg_test_rm_rf (folder_out);
  afg_test_rm_rf (sums);
  afg_test_rm_rf (merged);
}

/* Inside the job folder is judged with links resolved, as discovery
 * does: a DB reached through a link to the folder is in it (named below
 * the root as given), one reached through a link out of it is not. */
static void
test_summary_links (void)
{
  g_autofree char *base = afg_test_make_tmp_dir ();
  g_autofree char *job = g_build_filename (base, "job", NULL);
  g_autofree char *link = g_build_filename (base, "link", NULL);
  g_autofree char *outside = g_build_filename (base, "outside", NULL);
  g_autofree char *out_link = g_build_filename (job, "host_1_20261204000000000_ascend_pt", NULL);
  g_autofree char *out_target = g_build_filename (outside, "host_1_20261204000000000_ascend_pt", NULL);
  g_autofree char *sums = afg_test_make_tmp_dir ();
  g_autofree char *db0 = rank_path (job, 0);
  g_autofree char *db1 = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *err = NULL;
  const char *inside[] = { "--export", "-q", "-f", "summary", "--job-root", link, "-o", sums, db0, NULL };

  generate (job, 0, 2, "");
  generate (outside, 1, 2, "");
  g_assert_cmpint (symlink (job, link), ==, 0);
  g_assert_cmpint (symlink (out_target, out_link), ==, 0);
  g_assert_cmpint (afg_test_run_cli (inside, FALSE, NULL, NULL), ==, 0);
  summary = afg_test_read_output (sums, "summary-rank0.json");
  g_assert_nonnull (strstr (summary, "\"file\":\"host_0_20261204000000000_ascend_pt/ASCEND_PROFILER_OUTPUT/"));
  db1 = g_build_filename (out_link, "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler_1.db", NULL);
  {
    const char *linked_out[] = { "--export", "-q", "-f", "summary", "--job-root", job, "-o", sums, db1, NULL };

    g_assert_cmpint (afg_test_run_cli (linked_out, FALSE, NULL, &err), ==, 2);
    g_assert_nonnull (strstr (err, "is not inside the job folder"));
  }
  afg_test_rm_rf (base);
  afg_test_rm_rf (sums);
}

/* More summaries than a folder's ranks are read: the merge keeps the
 * lowest AFG_JOB_MAX_RANKS with discovery's warning, as the folder export
 * would (copies of one rank's summary, given highest rank first). */
static void
test_merge_rank_cap (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *sums = afg_test_make_tmp_dir ();
  g_autofree char *merged = afg_test_make_tmp_dir ();
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  g_autofree char *ranks_json = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  const char *marker = "\"rank\":0,";
  guint n = AFG_JOB_MAX_RANKS + 1;
  JsonArray *ranks;

  generate (job, 0, 2, "");
  g_assert_cmpint (summarise (job, 0, sums, NULL), ==, 0);
  text = afg_test_read_output (sums, "summary-rank0.json");
  g_assert_nonnull (strstr (text, marker));
  g_ptr_array_add (args, g_strdup ("--merge-summaries"));
  g_ptr_array_add (args, g_strdup ("-f"));
  g_ptr_array_add (args, g_strdup ("json"));
  g_ptr_array_add (args, g_strdup ("-o"));
  g_ptr_array_add (args, g_strdup (merged));
  for (int rank = (int) n - 1; rank >= 0; rank--)
    {
      g_autofree char *path = summary_of (sums, rank);
      g_autofree char *number = g_strdup_printf ("\"rank\":%d,", rank);
      g_auto(GStrv) halves = g_strsplit (text, marker, 2);
      g_autofree char *copy = g_strjoin (number, halves[0], halves[1], NULL);

      afg_test_write_file (path, copy, -1);
      g_ptr_array_add (args, g_steal_pointer (&path));
    }
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (afg_test_run_cli ((const char * const *) args->pdata, FALSE, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "warning: 1025 ranks found; only the first 1024 are read (ranks from 1024 on are ignored)"));
  ranks_json = afg_test_read_output (merged, "ranks.json");
  root = json_from_string (ranks_json, &error);
  g_assert_no_error (error);
  ranks = json_object_get_array_member (json_node_get_object (root), "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, AFG_JOB_MAX_RANKS);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranks, AFG_JOB_MAX_RANKS - 1), "rank"),
                   ==, AFG_JOB_MAX_RANKS - 1);
  afg_test_rm_rf (job);
  afg_test_rm_rf (sums);
  afg_test_rm_rf (merged);
}

/* Rank 1 twice, the second in a later torch_npu folder and late: the
 * summaries made into one folder keep the later DB's in either order (the
 * folder export uses it too), and their merge is the folder export's. */
static void
test_map_reduce_duplicate_rank (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *folder_out = afg_test_make_tmp_dir ();
  g_autofree char *late = g_strdup_printf ("--late-rank 1 --late-ns %d", LATE_NS);
  g_autofree char *newer_dir = g_build_filename (job, "host_1_20261205000000000_ascend_pt", NULL);
  g_autofree char *newer = g_build_filename (newer_dir, "ascend_pytorch_profiler_1.db", NULL);
  g_autofree char *older = NULL;
  const char *folder_args[] = { "--export", "-q", "-o", folder_out, job, NULL };

  generate (job, 0, 2, late);
  generate (job, 1, 2, "");
  older = rank_path (job, 1);
  g_assert_cmpint (g_mkdir_with_parents (newer_dir, 0755), ==, 0);
  generate_at (newer, 1, 2, late);
  g_assert_cmpint (afg_test_run_cli (folder_args, FALSE, NULL, NULL), ==, 0);
  for (guint newer_first = 0; newer_first < 2; newer_first++)
    {
      g_autofree char *sums = afg_test_make_tmp_dir ();
      g_autofree char *merged = afg_test_make_tmp_dir ();
      g_autofree char *s0 = summary_of (sums, 0), *s1 = summary_of (sums, 1);
      g_autofree char *summary = NULL;
      g_autofree char *err = NULL;
      const char *merge_args[] = { "--merge-summaries", "-q", "-o", merged, s0, s1, NULL };
      const char *second[] = { "--export", "-f", "summary", "--job-root", job, "-o", sums,
                               newer_first ? older : newer, NULL };

      g_assert_cmpint (summarise (job, 0, sums, NULL), ==, 0);
      {
        const char *first[] = { "--export", "-q", "-f", "summary", "--job-root", job, "-o", sums,
                                newer_first ? newer : older, NULL };

        g_assert_cmpint (afg_test_run_cli (first, FALSE, NULL, NULL), ==, 0);
      }
      g_assert_cmpint (afg_test_run_cli (second, FALSE, NULL, &err), ==, 0);
      g_assert_nonnull (strstr (err, "rank 1 is in both"));
      summary = afg_test_read_output (sums, "summary-rank1.json");
      g_assert_nonnull (strstr (summary, "host_1_20261205000000000_ascend_pt"));
      g_assert_cmpint (afg_test_run_cli (merge_args, FALSE, NULL, NULL), ==, 0);
      assert_same_file (folder_out, merged, "ranks.json");
      assert_same_file (folder_out, merged, "index.html");
      afg_test_rm_rf (sums);
      afg_test_rm_rf (merged);
    }
  afg_test_rm_rf (job);
  afg_test_rm_rf (folder_out);
}

/* Summaries made with other options are refused, nothing written; a rank
 * given twice: the later file wins, with a warning. */
static void
test_merge_refusals (void)
{
  g_autofree char *job = afg_test_make_tmp_dir ();
  g_autofree char *sums = afg_test_make_tmp_dir ();
  g_autofree char *other = afg_test_make_tmp_dir ();
  g_autofree char *merged = afg_test_make_tmp_dir ();
  g_autofree char *s0 = NULL, *s1 = NULL, *o1 = NULL;
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;

  generate (job, 0, 2, "");
  generate (job, 1, 2, "");
  g_assert_cmpint (summarise (job, 0, sums, NULL), ==, 0);
  g_assert_cmpint (summarise (job, 1, sums, NULL), ==, 0);
  g_assert_cmpint (summarise (job, 1, other, "--merge-addresses"), ==, 0);
  s0 = summary_of (sums, 0);
  s1 = summary_of (sums, 1);
  o1 = summary_of (other, 1);
  {
    const char *args[] = { "--merge-summaries", "-o", merged, s0, o1, NULL };

    g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 1);
    afg_test_assert_error_and_hint (err);
    g_assert_nonnull (strstr (err, "other options"));
    afg_test_assert_dir_holds (merged, NULL);
  }
  {
    const char *args[] = { "--merge-summaries", "-f", "json", "-o", merged, s0, s1, s1, NULL };
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *text = NULL;

    g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err2), ==, 0);
    g_assert_nonnull (strstr (err2, "warning: rank 1: "));
    afg_test_assert_dir_holds (merged, "ranks.json");
    text = afg_test_read_output (merged, "ranks.json");
    root = json_from_string (text, NULL);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "ranks")),
                      ==, 2);
  }
  afg_test_rm_rf (job);
  afg_test_rm_rf (sums);
  afg_test_rm_rf (other);
  afg_test_rm_rf (merged);
}

/* A file that is not a summary: one error line and a hint. */
static void
test_not_a_summary (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *bad = g_build_filename (dir, "summary-rank0.json", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *err = NULL;
  const char *args[] = { "--merge-summaries", "-o", out, bad, NULL };
  AfgSummaryOptions options;
  g_autoptr(GError) error = NULL;

  afg_test_write_file (bad, "{\"format\":\"ascend-flamegraph-rank-summary\",\"version\":1,\"rank\":\"x\"}", -1);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 1);
  afg_test_assert_error_and_hint (err);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_null (afg_summary_file_read ("[1]", 3, NULL, &options, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  afg_test_rm_rf (dir);
}

/* A summary written and read back is written again byte for byte (names
 * with escapes, a failed rank's error, a step without device); every
 * shorter prefix of it, and a byte changed at each place, is refused or
 * read without a crash. */
static void
test_round_trip (void)
{
  g_autoptr(AfgRankSummary) rank = afg_rank_summary_new (7, "dir/\"q\"\\ü.db");
  AfgSummaryOptions options = { TRUE, 3, 9, TRUE, FALSE }, read_options;
  AfgRankStep step = { 4, 100, 50, { 1, 2, 3, 4 } };
  gint64 ns = 42;
  g_autofree char *text = NULL;
  gsize length;

  rank->has_device = TRUE;
  rank->device = (AfgDeviceSplit) { 10, 20, 30, 40 };
  rank->comm_ns = 99;
  rank->error = g_strdup ("line\n\ttab <&>");
  g_array_append_val (rank->steps, step);
  afg_rank_summary_add_collective (rank, "g\u00e9", "op\x01", 5);
  afg_rank_summary_add_collective (rank, "g\u00e9", NULL, 6);
  g_hash_table_insert (rank->frames, g_strdup ("f \U0001F600"), g_memdup2 (&ns, sizeof ns));
  text = afg_summary_file_write (rank, &options);
  length = strlen (text);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AfgRankSummary) back = afg_summary_file_read (text, length, NULL, &read_options, &error);
    g_autofree char *again = NULL;

    g_assert_no_error (error);
    g_assert_true (afg_summary_options_equal (&options, &read_options));
    again = afg_summary_file_write (back, &read_options);
    g_assert_cmpstr (again, ==, text);
  }
  for (gsize cut = 0; cut + 1 < length; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *changed = g_strdup (text);
      AfgRankSummary *bad = afg_summary_file_read (text, cut, NULL, &read_options, &error);

      g_assert_null (bad);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      changed[cut] = changed[cut] == '9' ? '[' : '9';
      afg_rank_summary_free (afg_summary_file_read (changed, length, NULL, &read_options, NULL));
    }
}

/* The rank nearest the median compute time, not the straggler, ties to
 * the lowest rank; ranks without a device timeline or failed take no part. */
static void
test_reference (void)
{
  AfgRankSummary **ranks = make_ranks (6);
  const gint64 compute[] = { 100, 400, 300, 200, 999, 500 };

  for (guint i = 0; i < 6; i++)
    {
      ranks[i]->has_device = TRUE;
      ranks[i]->device.compute_ns = compute[i];
    }
  /* Median of 100 200 300 400 500 999: 350; 300 (rank 2) and 400 (rank 1)
   * are as near: the lower rank wins. */
  g_assert_cmpint (afg_job_reference_rank (ranks, 6, 4), ==, 1);
  /* Not the straggler itself: then rank 2. */
  g_assert_cmpint (afg_job_reference_rank (ranks, 6, 1), ==, 2);
  /* Without rank 4's device: 100 200 300 400 500, median 300 (rank 2). */
  ranks[4]->has_device = FALSE;
  g_assert_cmpint (afg_job_reference_rank (ranks, 6, 0), ==, 2);
  ranks[2]->error = g_strdup ("broken");
  /* 100 200 400 500: 300 again, 200 (rank 3) and 400 (rank 1): rank 1. */
  g_assert_cmpint (afg_job_reference_rank (ranks, 6, 0), ==, 1);
  for (guint i = 0; i < 6; i++)
    ranks[i]->has_device = FALSE;
  g_assert_cmpint (afg_job_reference_rank (ranks, 6, 0), ==, -1);
  free_ranks (ranks, 6);
}

/* Times up to G_MAXINT64, as a summary file may hold: the median of
 * MAX-3, MAX-2, MAX-1 and MAX is MAX-1.5; MAX-2 (rank 3) and MAX-1
 * (rank 2) are as near, the lower rank wins; without rank 2, MAX-2. */
static void
test_reference_largest (void)
{
  AfgRankSummary **ranks = make_ranks (4);
  const gint64 compute[] = { G_MAXINT64, G_MAXINT64 - 3, G_MAXINT64 - 1, G_MAXINT64 - 2 };

  for (guint i = 0; i < 4; i++)
    {
      ranks[i]->has_device = TRUE;
      ranks[i]->device.compute_ns = compute[i];
    }
  g_assert_cmpint (afg_job_reference_rank (ranks, 4, -1), ==, 2);
  g_assert_cmpint (afg_job_reference_rank (ranks, 4, 2), ==, 3);
  /* Odd: MAX-3, MAX-2, MAX: the middle value doubled. */
  ranks[2]->has_device = FALSE;
  g_assert_cmpint (afg_job_reference_rank (ranks, 4, -1), ==, 3);
  free_ranks (ranks, 4);
}

/* Each time and count a summary holds, written as -1, makes the file
 * refused, naming the member; the rank -1 (unknown) and a negative step
 * id are read. */
static void
test_negative_times (void)
{
  g_autoptr(AfgRankSummary) rank = afg_rank_summary_new (3, "r.db");
  AfgSummaryOptions options = { FALSE, 0, 0, FALSE, FALSE }, read_options;
  AfgRankStep step = { -5, 1009, 1010, { 1011, 1012, 1013, 1014 } };
  gint64 frame_ns = 1016;
  const struct { const char *value; const char *member; } times[] = {
    { "1001", "rows" }, { "1002", "host_ns" }, { "1003", "npu_ns" }, { "1004", "comm_ns" },
    { "1005", "device" }, { "1006", "device" }, { "1007", "device" }, { "1008", "device" },
    { "1009", "steps" }, { "1010", "steps" }, { "1011", "device" }, { "1014", "device" },
    { "1015", "collectives" }, { "1016", "frames" },
  };
  g_autofree char *text = NULL;

  rank->rows = 1001;
  rank->host_ns = 1002;
  rank->npu_ns = 1003;
  rank->comm_ns = 1004;
  rank->has_device = TRUE;
  rank->device = (AfgDeviceSplit) { 1005, 1006, 1007, 1008 };
  g_array_append_val (rank->steps, step);
  afg_rank_summary_add_collective (rank, "g", "op", 1015);
  g_hash_table_insert (rank->frames, g_strdup ("f"), g_memdup2 (&frame_ns, sizeof frame_ns));
  text = afg_summary_file_write (rank, &options);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) parts = g_strsplit (text, times[i].value, -1);
      g_autofree char *bad = g_strjoinv ("-1", parts);
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", times[i].member);

      g_assert_cmpuint (g_strv_length (parts), ==, 2);
      g_assert_null (afg_summary_file_read (bad, strlen (bad), NULL, &read_options, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, quoted));
    }
  rank->rank = -1;
  g_clear_pointer (&text, g_free);
  text = afg_summary_file_write (rank, &options);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AfgRankSummary) back = afg_summary_file_read (text, strlen (text), NULL, &read_options, &error);

    g_assert_no_error (error);
    g_assert_cmpint (back->rank, ==, -1);
    g_assert_cmpint (g_array_index (back->steps, AfgRankStep, 0).id, ==, -5);
  }
}

/* index.html's step bars are 2 + 98 × the step's share of the longest
 * step, in %, also for times that 98 times would overflow. */
static void
test_step_bars (void)
{
  AfgRankSummary **ranks = make_ranks (2);
  const gint64 ns[2][3] = { { G_MAXINT64, G_MAXINT64 / 2 + 1, 0 }, { 1000, 500, 10 } };
  g_autoptr(AfgJobFigures) figures = NULL;
  g_autofree char *index = NULL;
  const char *heights[] = { "height:100%", "height:51%", "height:2%", "height:2%", "height:2%", "height:2%" };
  const char *at;

  for (guint r = 0; r < 2; r++)
    for (guint k = 0; k < 3; k++)
      {
        AfgRankStep step = { k, ns[r][k], 0, { 0 } };

        g_array_append_val (ranks[r]->steps, step);
      }
  figures = afg_job_figures_new (ranks, 2);
  index = afg_ranks_index_write (ranks, 2, figures, NULL);
  at = strstr (index, "<div class=\"bars\">");
  g_assert_nonnull (at);
  for (guint i = 0; i < G_N_ELEMENTS (heights); i++)
    {
      at = strstr (at, "<span style=\"height:");
      g_assert_nonnull (at);
      at += strlen ("<span style=\"");
      g_assert_true (g_str_has_prefix (at, heights[i]) && at[strlen (heights[i])] == '"');
    }
  free_ranks (ranks, 2);
}

/* Every rank failed, yet their summary files list frames: each frame's
 * spread is 0 (it was G_MININT64 - G_MAXINT64, which the sanitizer
 * build reports), so the frames go by name. */
static void
test_all_failed (void)
{
  AfgRankSummary **ranks = make_ranks (2);
  g_autoptr(AfgJobFigures) figures = NULL;
  const char *names[] = { "b", "a" };

  for (guint i = 0; i < 2; i++)
    {
      gint64 ns = 100 * (i + 1);

      ranks[i]->error = g_strdup ("no step 3");
      g_hash_table_insert (ranks[i]->frames, g_strdup (names[i]), g_memdup2 (&ns, sizeof ns));
    }
  figures = afg_job_figures_new (ranks, 2);
  g_assert_cmpstr (figures->frames[0], ==, "a");
  g_assert_cmpstr (figures->frames[1], ==, "b");
  g_assert_null (figures->frames[2]);
  free_ranks (ranks, 2);
}

/* An opName or groupName id that STRING_IDS lacks resolves to
 * <unknown:ID>, as it does everywhere, and is matched by it; only a NULL
 * id has no string. */
static void
test_unknown_names (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  AfgRankSummary *ranks[2] = { afg_rank_summary_new (0, "0.db"), afg_rank_summary_new (1, "1.db") };
  g_autoptr(AfgJobCollectives) c = NULL;
  const AfgRankCollective *ops;

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", AFG_TEST_NULL);
  afg_test_db_add_collective (db, 0, 1, AFG_TEST_NO_LINK, "named");
  afg_test_db_exec (db, "UPDATE COMMUNICATION_OP SET groupName = 777777;"
                        "INSERT INTO COMMUNICATION_OP (opName, startNs, endNs, groupName) VALUES"
                        " (888888, 100, 1100, 777777), (NULL, 0, 10, 777777), (888888, 0, 100, NULL)");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  afg_rank_summary_fill_collectives (ranks[0], document);
  g_assert_cmpint (ranks[0]->comm_ns, ==, 1 + 1000 + 10 + 100);
  g_assert_cmpuint (ranks[0]->collectives->len, ==, 3);
  ops = (const AfgRankCollective *) ranks[0]->collectives->data;
  g_assert_cmpstr (ops[0].group, ==, "<unknown:777777>");
  g_assert_cmpstr (ops[0].op, ==, "named");
  g_assert_cmpstr (ops[1].op, ==, "<unknown:888888>");
  g_assert_null (ops[2].op);
  afg_rank_summary_add_collective (ranks[1], "<unknown:777777>", "<unknown:888888>", 100);
  afg_rank_summary_add_collective (ranks[1], "<unknown:777777>", "named", 1);
  c = afg_job_collectives_new (ranks, 2);
  g_assert_cmpuint (c->matched->len, ==, 2);
  g_assert_cmpint (c->wait_ns[0], ==, 900);
  afg_rank_summary_free (ranks[0]);
  afg_rank_summary_free (ranks[1]);
}

/* An opName or groupName id of -1 or 4294967295 has no string, as a NULL
 * one: such a group is no group (the row counts only in comm_ns), such an
 * op only makes its rank one of the group's. */
static void
test_no_string_ids (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  AfgRankSummary *rank = afg_rank_summary_new (0, "0.db");
  const AfgRankCollective *ops;

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", AFG_TEST_NULL);
  afg_test_db_add_collective (db, 0, 1, AFG_TEST_NO_LINK, "named");
  afg_test_db_exec (db, "UPDATE COMMUNICATION_OP SET groupName = 777777;"
                        "INSERT INTO STRING_IDS (id, value) VALUES (-1, 'minus one'), (4294967295, 'max');"
                        "INSERT INTO COMMUNICATION_OP (opName, startNs, endNs, groupName) VALUES"
                        " (-1, 0, 10, 777777), (4294967295, 0, 20, 777777),"
                        " (888888, 0, 40, -1), (888888, 0, 80, 4294967295)");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  afg_rank_summary_fill_collectives (rank, document);
  g_assert_cmpint (rank->comm_ns, ==, 1 + 10 + 20 + 40 + 80);
  g_assert_cmpuint (rank->collectives->len, ==, 3);
  ops = (const AfgRankCollective *) rank->collectives->data;
  g_assert_cmpstr (ops[0].op, ==, "named");
  g_assert_cmpstr (ops[1].group, ==, "<unknown:777777>");
  g_assert_null (ops[1].op);
  g_assert_null (ops[2].op);
  afg_rank_summary_free (rank);
}

/* A document with steps @ids starting at @starts. */
static AfgDocument *
steps_document (const gint64 *ids, const gint64 *starts, guint n)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  AfgDocument *document;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("ProfilerStep#%" G_GINT64_FORMAT, ids[i]);

      afg_test_db_add (db, 1, starts[i], starts[i] + 1000, name);
      afg_test_db_add (db, 1, starts[i] + 10, starts[i] + 500, "work");
    }
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return document;
}

/* The steps both have, by id, and how much later they start on A, on average. */
static void
test_step_offset (void)
{
  const gint64 ids_a[] = { 3, 4, 5 }, starts_a[] = { 10000, 20000, 30000 };
  const gint64 ids_b[] = { 4, 5 }, starts_b[] = { 15900, 26000 };
  const gint64 ids_c[] = { 9 }, starts_c[] = { 0 };
  const gint64 ids_d[] = { 5 }, starts_d[] = { 30000 };
  g_autoptr(AfgDocument) a = steps_document (ids_a, starts_a, 3);
  g_autoptr(AfgDocument) b = steps_document (ids_b, starts_b, 2);
  g_autoptr(AfgDocument) c = steps_document (ids_c, starts_c, 1);
  g_autoptr(AfgDocument) d = steps_document (ids_d, starts_d, 1);
  g_autofree char *later = NULL;
  g_autofree char *earlier = NULL;
  g_autofree char *same = NULL;
  g_autofree char *none = NULL;
  guint n;
  gint64 offset;

  /* Step 4: 4,100 ns later, step 5: 4,000: 4,050 on average. */
  g_assert_true (afg_job_step_offset (a, b, &n, &offset));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (offset, ==, 4050);
  later = afg_job_explain_offset (3, a, 5, b);
  g_assert_cmpstr (later, ==, "rank 3's steps start 4.1 µs later than rank 5's (mean over the 2 steps both have)");
  earlier = afg_job_explain_offset (5, b, 3, a);
  g_assert_cmpstr (earlier, ==, "rank 5's steps start 4.1 µs earlier than rank 3's (mean over the 2 steps both have)");
  same = afg_job_explain_offset (3, a, 7, d);
  g_assert_cmpstr (same, ==, "rank 3's steps start when rank 7's do (the 1 step both have)");
  g_assert_false (afg_job_step_offset (a, c, &n, &offset));
  none = afg_job_explain_offset (3, a, 9, c);
  g_assert_cmpstr (none, ==, "rank 3 and rank 9 have no step in common");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/collectives/rules/thresholds", test_thresholds);
  g_test_add_func ("/collectives/rules/matching", test_matching);
  g_test_add_func ("/collectives/rules/votes", test_votes);
  g_test_add_func ("/collectives/rules/one", test_one_collective);
  g_test_add_func ("/collectives/rules/unknown-names", test_unknown_names);
  g_test_add_func ("/collectives/rules/no-string-ids", test_no_string_ids);
  g_test_add_func ("/collectives/rules/failed-rank", test_failed_rank);
  g_test_add_func ("/collectives/rules/reducer", test_reducer);
  g_test_add_func ("/collectives/rules/reference", test_reference);
  g_test_add_func ("/collectives/rules/reference-largest", test_reference_largest);
  g_test_add_func ("/collectives/rules/step-offset", test_step_offset);
  g_test_add_func ("/collectives/job/late-rank", test_late_rank);
  g_test_add_func ("/collectives/job/balanced", test_balanced);
  g_test_add_func ("/collectives/job/missing", test_missing);
  g_test_add_func ("/collectives/job/none-matched", test_none_matched);
  g_test_add_func ("/collectives/job/failed-scope", test_failed_scope);
  g_test_add_data_func ("/collectives/map-reduce/same-bytes", NULL, test_map_reduce);
  g_test_add_data_func ("/collectives/map-reduce/relative-root", "relative", test_map_reduce);
  g_test_add_func ("/collectives/map-reduce/duplicate-rank", test_map_reduce_duplicate_rank);
  g_test_add_func ("/collectives/map-reduce/rank-cap", test_merge_rank_cap);
  g_test_add_func ("/collectives/map-reduce/links", test_summary_links);
  g_test_add_func ("/collectives/map-reduce/refusals", test_merge_refusals);
  g_test_add_func ("/collectives/map-reduce/not-a-summary", test_not_a_summary);
  g_test_add_func ("/collectives/map-reduce/round-trip", test_round_trip);
  g_test_add_func ("/collectives/map-reduce/negative-times", test_negative_times);
  g_test_add_func ("/collectives/map-reduce/step-bars", test_step_bars);
  g_test_add_func ("/collectives/map-reduce/all-failed", test_all_failed);
  return g_test_run ();
}
