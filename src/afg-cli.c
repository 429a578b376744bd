/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <inttypes.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "afg-cli.h"
#include "afg-error.h"
#include "afg-format.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

#define PROG "ascend-flamegraph"

typedef struct {
  gboolean   export;
  char      *output;
  char      *format;
  gboolean   quiet;
  char      *steps;
  gint64     first_step;  /* --steps, parsed */
  gint64     last_step;
  char     **files;
} CliOptions;

typedef struct {
  gboolean tty;
  gint64   last_print;
} Progress;

gboolean
afg_cli_wants_export (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        return FALSE;
      if (strcmp (argv[i], "--export") == 0)
        return TRUE;
    }
  return FALSE;
}

static void
print_error (const char *message, const char *hint)
{
  g_printerr ("%s: %s: %s\n", PROG, _("error"), message);
  if (hint != NULL)
    g_printerr ("%s: %s: %s\n", PROG, _("hint"), hint);
}

static int
usage_error (const char *message)
{
  g_autofree char *usage = g_strdup_printf (_("usage: %s --export [-o DIR] [-f html|json|folded] [-q] DB"), PROG);

  print_error (message, usage);
  return AFG_EXIT_USAGE;
}

static void
on_progress (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  Progress *p = data;
  gint64 now = g_get_monotonic_time ();

  if (!p->tty || now - p->last_print < 100000)
    return;
  p->last_print = now;
  if (phase == AFG_LOAD_PHASE_READING)
    {
      g_printerr ("\r");
      g_printerr (_("reading rows: %" PRIu64 " of ~%" PRIu64), rows, total);
      g_printerr ("   ");
    }
  else if (phase == AFG_LOAD_PHASE_BUILDING)
    g_printerr ("\r%-60s", _("building the flame graph…"));
}

static void
print_summary (const AfgTree *tree, double seconds, const char *out_path)
{
  const AfgStats *s = afg_tree_get_stats (tree);
  g_autofree char *shown = afg_format_path (out_path);

  g_printerr (_("%s: %s: %" PRIu64 " rows, %" PRIu64 " used; skipped: %"
                PRIu64 " other type, %" PRIu64 " NULL, %" PRIu64
                " malformed, %" PRIu64 " non-positive duration, %" PRIu64
                " ProfilerStep; %u threads, %u nodes, %" PRIu64 " partial overlaps, %"
                PRIu64 " cut below depth 1000; %.2f s; wrote %s\n"),
              PROG, afg_document_get_source_name (afg_tree_get_document (tree)), s->rows, s->used,
              s->skipped_type, s->skipped_null, s->skipped_malformed, s->skipped_nonpositive,
              s->profiler_steps, afg_tree_get_n_threads (tree),
              afg_tree_get_n_nodes (tree) - 1 - afg_tree_get_n_threads (tree),
              s->partial_overlaps, s->depth_truncated, seconds, shown);
}

static void
print_warnings (const AfgTree *tree)
{
  const AfgStats *s = afg_tree_get_stats (tree);

  if (s->skipped_nonpositive > 0)
    g_printerr (_("%s: warning: %" PRIu64 " rows with endNs <= startNs were skipped\n"),
                PROG, s->skipped_nonpositive);
  if (s->depth_truncated > 0)
    g_printerr (_("%s: warning: %" PRIu64 " calls deeper than %d frames were left out;"
                  " their time stays in the frame above\n"), PROG, s->depth_truncated, AFG_MAX_DEPTH);
  if (afg_tree_is_empty (tree) && afg_tree_get_scope (tree)->bounded)
    g_printerr (_("%s: warning: no usable rows in steps %" PRId64 "–%" PRId64 "\n"), PROG,
                afg_tree_get_scope (tree)->first_step, afg_tree_get_scope (tree)->last_step);
  else if (afg_tree_is_empty (tree))
    g_printerr (_("%s: warning: no usable rows in PYTORCH_API. Likely causes: the CPU activity was"
                  " not collected (add torch_npu.profiler.ProfilerActivity.CPU); the profile holds"
                  " only ProfilerStep# markers or mstx ranges; the run stopped before any step was"
                  " recorded\n"), PROG);
}

/* --steps A or A-B, checked against the steps the DB has. */
static gboolean
scope_from_options (const CliOptions *opts, const AfgDocument *document, AfgScope *scope, GError **error)
{
  *scope = (AfgScope) { 0 };
  return opts->steps == NULL
         || afg_scope_init_steps (scope, document, opts->first_step, opts->last_step, error);
}

static char *
scope_error_hint (const GError *error, const AfgDocument *document)
{
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);

  if (error->code == AFG_SCOPE_ERROR_NO_STEPS)
    return g_strdup (_("export without --steps; torch_npu marks a step each time the profiler's step() is called"));
  if (n == 1)
    return g_strdup_printf (_("the profile has one step: --steps %" PRId64), steps[0].id);
  return g_strdup_printf (_("choose steps the profile has, e.g. --steps %" PRId64 " or --steps %"
                            PRId64 "-%" PRId64), steps[0].id, steps[0].id, steps[n - 1].id);
}

static int
report_build_error (const GError *error, const AfgDocument *document)
{
  g_autofree char *hint = NULL;

  if (error->domain == AFG_SCOPE_ERROR)
    hint = scope_error_hint (error, document);
  print_error (error->message, hint ? hint : afg_load_error_get_hint (error));
  return AFG_EXIT_BAD_INPUT;
}

/* Before loading: a malformed --steps is a usage error, not a DB's. */
static gboolean
parse_steps_option (CliOptions *opts)
{
  g_autofree char *message = NULL;

  if (opts->steps == NULL || afg_scope_parse_steps (opts->steps, &opts->first_step, &opts->last_step))
    return TRUE;
  message = g_strdup_printf (_("invalid --steps '%s'"), opts->steps);
  print_error (message, _("use --steps A or --steps A-B, where A and B are step numbers (ProfilerStep#N)"));
  return FALSE;
}

static int
run_export (CliOptions *opts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *out_path = NULL;
  gint64 started = g_get_monotonic_time ();
  double seconds;
  Progress progress = { !opts->quiet && isatty (STDERR_FILENO), 0 };
  AfgFormat format = AFG_FORMAT_HTML;
  AfgScope scope;

  if (opts->format != NULL && !afg_format_from_string (opts->format, &format))
    {
      g_autofree char *message = g_strdup_printf (_("unknown format '%s'"), opts->format);

      print_error (message, _("use -f html, -f json or -f folded"));
      return AFG_EXIT_USAGE;
    }
  if (!parse_steps_option (opts))
    return AFG_EXIT_USAGE;
  document = afg_document_load (opts->files[0], NULL, on_progress, &progress, &error);
  if (document != NULL && scope_from_options (opts, document, &scope, &error))
    tree = afg_tree_build (document, &scope, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (progress.last_print != 0)
    g_printerr ("\r%60s\r", "");
  if (tree == NULL)
    return report_build_error (error, document);
  seconds = (g_get_monotonic_time () - started) / 1e6;
  if (!afg_export_to_dir (tree, format, opts->output ? opts->output : ".", &out_path, &error))
    {
      print_error (error->message, _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  if (!opts->quiet)
    {
      print_warnings (tree);
      print_summary (tree, seconds, out_path);
    }
  return AFG_EXIT_OK;
}

int
afg_cli_main (int argc, char **argv)
{
  CliOptions opts = { 0 };
  GOptionEntry entries[] = {
    { "export", 0, 0, G_OPTION_ARG_NONE, &opts.export, N_("Write the flame graph without a window"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts.output, N_("Output directory (default: current)"), N_("DIR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &opts.format, N_("html (default), json or folded"), N_("FORMAT") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts.quiet, N_("Print errors only"), NULL },
    { "steps", 0, 0, G_OPTION_ARG_STRING, &opts.steps, N_("Only training steps A to B (ProfilerStep#N)"), N_("A[-B]") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opts.files, NULL, N_("DB") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  int status;

  g_option_context_set_summary (context, _("Flame graph of the host CPU calls in an Ascend PyTorch profiler database."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    status = usage_error (error->message);
  else if (opts.files == NULL || g_strv_length (opts.files) != 1)
    status = usage_error (opts.files == NULL ? _("no database given") : _("give exactly one database"));
  else
    status = run_export (&opts);
  g_free (opts.output);
  g_free (opts.format);
  g_free (opts.steps);
  g_strfreev (opts.files);
  return status;
}
