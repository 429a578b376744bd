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
#define TOP_UNSET G_MININT

typedef struct {
  gboolean   export;
  char      *output;
  char      *format;
  gboolean   quiet;
  int        top;
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
      if (strcmp (argv[i], "--export") == 0 || strcmp (argv[i], "--top") == 0
          || g_str_has_prefix (argv[i], "--top="))
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
  if (afg_tree_is_empty (tree))
    g_printerr (_("%s: warning: no usable rows in PYTORCH_API. Likely causes: the CPU activity was"
                  " not collected (add torch_npu.profiler.ProfilerActivity.CPU); the profile holds"
                  " only ProfilerStep# markers or mstx ranges; the run stopped before any step was"
                  " recorded\n"), PROG);
}

/* --top N: a quick look over ssh, on stdout (the summary stays on stderr). */
static void
print_top (const AfgTree *tree, int n)
{
  g_autoptr(GString) table = g_string_new (NULL);

  afg_top_write (tree, (guint) n, table);
  fwrite (table->str, 1, table->len, stdout);
  fflush (stdout);
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

  if (opts->top != TOP_UNSET && opts->top < 1)
    return usage_error (_("--top needs a positive number"));
  if (opts->format != NULL && !afg_format_from_string (opts->format, &format))
    {
      g_autofree char *message = g_strdup_printf (_("unknown format '%s'"), opts->format);

      print_error (message, _("use -f html, -f json or -f folded"));
      return AFG_EXIT_USAGE;
    }
  document = afg_document_load (opts->files[0], NULL, on_progress, &progress, &error);
  if (document != NULL)
    tree = afg_tree_build (document, NULL, AFG_TREE_DURATIONS, NULL, &error);
  if (progress.last_print != 0)
    g_printerr ("\r%60s\r", "");
  if (tree == NULL)
    {
      print_error (error->message, afg_load_error_get_hint (error));
      return AFG_EXIT_BAD_INPUT;
    }
  seconds = (g_get_monotonic_time () - started) / 1e6;
  if (opts->top != TOP_UNSET)
    print_top (tree, opts->top);
  if (!opts->export)
    return AFG_EXIT_OK;
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
  CliOptions opts = { .top = TOP_UNSET };
  GOptionEntry entries[] = {
    { "export", 0, 0, G_OPTION_ARG_NONE, &opts.export, N_("Write the flame graph without a window"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts.output, N_("Output directory (default: current)"), N_("DIR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &opts.format, N_("html (default), json or folded"), N_("FORMAT") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts.quiet, N_("Print errors only"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &opts.top, N_("Print the N functions with the most self time (without --export: only that)"), N_("N") },
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
  g_strfreev (opts.files);
  return status;
}
