/* SPDX-License-Identifier: MIT */
/* Issue 17: --export of a whole training job's folder, the ranks read in
 * parallel, each exported and then dropped but for its summary. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-atomic-file.h"
#include "afg-cli.h"
#include "afg-cli-ranks.h"
#include "afg-error.h"
#include "afg-format.h"
#include "afg-job-folder.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

#define PROG "ascend-flamegraph"

typedef struct {
  gint64 id;
  gint64 host_ns;
  gint64 npu_ns;
} StepSummary;

/* What is kept of a rank once it is exported. */
typedef struct {
  const AfgJobRank *rank;
  guint64           rows;
  guint             threads;
  gint64            host_ns;
  gint64            npu_ns;
  GArray           *steps;   /* StepSummary */
  char             *error;
} RankSummary;

typedef struct {
  const AfgCliRanksOptions *opts;
  const char               *out_dir;
} Job;

static gint64
root_value (const AfgTree *tree, AfgColumn column)
{
  return afg_tree_has_column (tree, column) ? afg_tree_get_value (tree, column, AFG_TREE_ROOT) : 0;
}

/* Each step of @scope (all of them without --steps) as a tree of its own. */
static gboolean
summarise_steps (AfgDocument *document, const AfgScope *scope, GArray *out, GError **error)
{
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);

  for (guint i = 0; i < n; i++)
    {
      AfgScope one;
      g_autoptr(AfgTree) tree = NULL;
      StepSummary step = { steps[i].id, 0, 0 };

      if (scope->n_steps > 0 && (steps[i].id < scope->first_step || steps[i].id > scope->last_step))
        continue;
      if (!afg_scope_init_steps (&one, document, steps[i].id, steps[i].id, error))
        return FALSE;
      tree = afg_tree_build (document, &one, AFG_TREE_FLAGS_NONE, NULL, error);
      if (tree == NULL)
        return FALSE;
      step.host_ns = root_value (tree, AFG_COLUMN_TOTAL_NS);
      step.npu_ns = root_value (tree, AFG_COLUMN_NPU_TOTAL_NS);
      g_array_append_val (out, step);
    }
  return TRUE;
}

static gboolean
export_rank (const Job *job, RankSummary *summary, GError **error)
{
  const AfgCliRanksOptions *opts = job->opts;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *name = g_strdup_printf ("rank%d", summary->rank->rank);
  g_autofree char *dir = g_build_filename (job->out_dir, name, NULL);
  AfgScope scope = { 0 };

  document = afg_document_load (summary->rank->path, NULL, NULL, NULL, error);
  if (document == NULL)
    return FALSE;
  if (opts->has_steps
      && !afg_scope_init_steps (&scope, document, opts->first_step, opts->last_step, error))
    return FALSE;
  tree = afg_tree_build (document, &scope, AFG_TREE_DURATIONS, NULL, error);
  if (tree == NULL)
    return FALSE;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    return afg_error_set_errno (error, dir, _("cannot create the folder"), errno);
  if (!afg_export_to_dir_weighted (tree, opts->format, opts->weight, dir, NULL, error))
    return FALSE;
  summary->rows = afg_document_get_load_stats (document)->rows;
  summary->threads = afg_tree_get_n_threads (tree);
  summary->host_ns = root_value (tree, AFG_COLUMN_TOTAL_NS);
  summary->npu_ns = root_value (tree, AFG_COLUMN_NPU_TOTAL_NS);
  return summarise_steps (document, &scope, summary->steps, error);
}

static void
rank_worker (gpointer data, gpointer user_data)
{
  RankSummary *summary = data;
  g_autoptr(GError) error = NULL;

  if (!export_rank (user_data, summary, &error))
    summary->error = g_strdup (error->message);
}

/* At most one document per core is alive at a time. */
static void
export_all (const Job *job, RankSummary *summaries, guint n)
{
  g_autoptr(GError) error = NULL;
  GThreadPool *pool = g_thread_pool_new (rank_worker, (gpointer) job,
                                         (int) MAX (1, g_get_num_processors ()), FALSE, &error);

  for (guint i = 0; i < n; i++)
    {
      if (pool == NULL)
        rank_worker (&summaries[i], (gpointer) job);
      else
        g_thread_pool_push (pool, &summaries[i], NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
}

static char *
relative_file (const char *folder, const char *path)
{
  gsize len = strlen (folder);

  if (g_str_has_prefix (path, folder) && path[len] == G_DIR_SEPARATOR)
    path += len + 1;
  return afg_format_path (path);
}

static void
add_summary (JsonBuilder *builder, const char *folder, const RankSummary *summary)
{
  g_autofree char *file = relative_file (folder, summary->rank->path);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "rank");
  json_builder_add_int_value (builder, summary->rank->rank);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, file);
  json_builder_set_member_name (builder, "rows");
  json_builder_add_int_value (builder, (gint64) summary->rows);
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, summary->threads);
  json_builder_set_member_name (builder, "host_ns");
  json_builder_add_int_value (builder, summary->host_ns);
  json_builder_set_member_name (builder, "npu_ns");
  json_builder_add_int_value (builder, summary->npu_ns);
  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < summary->steps->len; i++)
    {
      const StepSummary *step = &g_array_index (summary->steps, StepSummary, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_int_value (builder, step->id);
      json_builder_set_member_name (builder, "host_ns");
      json_builder_add_int_value (builder, step->host_ns);
      json_builder_set_member_name (builder, "npu_ns");
      json_builder_add_int_value (builder, step->npu_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "error");
  if (summary->error != NULL)
    json_builder_add_string_value (builder, summary->error);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static char *
ranks_json (const char *folder, const RankSummary *summaries, guint n)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "ascend-flamegraph-ranks");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    add_summary (builder, folder, &summaries[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  return g_strconcat (text, "\n", NULL);
}

static gboolean
write_file (const char *dir, const char *name, const char *text, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  AfgAtomicFile *file = afg_atomic_file_open (path, error);

  if (file == NULL)
    return FALSE;
  if (!afg_atomic_file_write (file, text, strlen (text), error))
    {
      afg_atomic_file_abort (file);
      return FALSE;
    }
  return afg_atomic_file_commit (file, error);
}

static void
print_warnings (const AfgJobFolder *folder)
{
  for (guint i = 0; i < folder->warnings->len; i++)
    g_printerr (_("%s: warning: %s\n"), PROG, (const char *) g_ptr_array_index (folder->warnings, i));
}

/* One error line per rank that could not be read; the count of them. */
static guint
report_rank_errors (const RankSummary *summaries, guint n)
{
  guint bad = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *message = NULL;

      if (summaries[i].error == NULL)
        continue;
      message = g_strdup_printf (_("rank %d: %s"), summaries[i].rank->rank, summaries[i].error);
      afg_cli_print_error (message, NULL);
      bad++;
    }
  return bad;
}

static int
write_summary (const char *folder, const char *out_dir, const RankSummary *summaries, guint n)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = ranks_json (folder, summaries, n);

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    afg_error_set_errno (&error, out_dir, _("cannot create the folder"), errno);
  if (error != NULL || !write_file (out_dir, "ranks.json", text, &error))
    {
      afg_cli_print_error (error->message, _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  return AFG_EXIT_OK;
}

int
afg_cli_ranks_export (const char *folder_path, const AfgCliRanksOptions *opts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgJobFolder) folder = afg_job_folder_discover (folder_path, &error);
  Job job = { opts, opts->output != NULL ? opts->output : "." };
  RankSummary *summaries;
  guint n, bad;
  int status;

  if (folder == NULL)
    {
      afg_cli_print_error (error->message, afg_job_error_get_hint (error));
      return AFG_EXIT_BAD_INPUT;
    }
  if (!opts->quiet)
    print_warnings (folder);
  n = folder->ranks->len;
  summaries = g_new0 (RankSummary, n);
  for (guint i = 0; i < n; i++)
    {
      summaries[i].rank = g_ptr_array_index (folder->ranks, i);
      summaries[i].steps = g_array_new (FALSE, FALSE, sizeof (StepSummary));
    }
  export_all (&job, summaries, n);
  bad = report_rank_errors (summaries, n);
  status = write_summary (folder_path, job.out_dir, summaries, n);
  if (status == AFG_EXIT_OK && !opts->quiet)
    g_printerr (_("%s: %u ranks written to %s\n"), PROG, n - bad, job.out_dir);
  for (guint i = 0; i < n; i++)
    {
      g_array_unref (summaries[i].steps);
      g_free (summaries[i].error);
    }
  g_free (summaries);
  if (status == AFG_EXIT_OK && bad > 0)
    status = AFG_EXIT_BAD_INPUT;
  return status;
}
