/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <inttypes.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "afg-cli.h"
#include "afg-cli-diff.h"
#include "afg-cli-ranks.h"
#include "afg-cli-report.h"
#include "afg-format.h"
#include "afg-huge.h"
#include "afg-job-folder.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-tree-transform.h"
#include "afg-writers.h"

#define PROG AFG_CLI_PROG
#define TOP_UNSET G_MININT

typedef struct {
  gboolean   export;
  gboolean   diff;
  gboolean   version;
  char      *output;
  char      *format;
  char      *weight;
  gboolean   kernels;
  gboolean   quiet;
  gboolean   merge_addresses;
  char      *steps;
  gboolean   npu_idle;
  gboolean   merge_summaries;
  char      *job_root;
  gint64     first_step;  /* --steps, parsed */
  gint64     last_step;
  int        top;
  char     **files;
  AfgTransformList *transforms;  /* in the command line's order; NULL when none */
} CliOptions;

typedef struct {
  gboolean tty;
  gint64   last_print;
} Progress;

/* Any option, not only --export: --help, --version, a misspelt option or
 * -o without --export must get the command line's answer, not GApplication's.
 * GApplication's own D-Bus activation flag still goes to the window. */
gboolean
afg_cli_handles (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        return FALSE;
      if (argv[i][0] == '-' && argv[i][1] != '\0' && strcmp (argv[i], "--gapplication-service") != 0)
        return TRUE;
    }
  return FALSE;
}

/* `--diff A B` and nothing else: the window shows the comparison (with
 * --export or any other option the command line answers). */
gboolean
afg_cli_window_diff (int argc, char **argv, const char **a, const char **b)
{
  if (argc != 4 || strcmp (argv[1], "--diff") != 0 || argv[2][0] == '-' || argv[3][0] == '-')
    return FALSE;
  *a = argv[2];
  *b = argv[3];
  return TRUE;
}

static int
usage_error (const char *message)
{
  g_autofree char *usage = g_strdup_printf (_("usage: %s --export [-o DIR] [-f html|json|folded|trace] [--weight host|npu|compute|comm|exposed [--kernels]] [--steps A[-B]] [--npu-idle] [--merge-addresses] [-q] DB|FOLDER"), PROG);

  afg_cli_print_error (message, usage);
  return AFG_EXIT_USAGE;
}

int
afg_cli_no_display (void)
{
  const char *x11 = g_getenv ("DISPLAY");
  const char *wayland = g_getenv ("WAYLAND_DISPLAY");
  g_autofree char *message = NULL;
  g_autofree char *hint = NULL;

  if ((x11 == NULL || *x11 == '\0') && (wayland == NULL || *wayland == '\0'))
    message = g_strdup (_("no display: DISPLAY and WAYLAND_DISPLAY are not set"));
  else
    message = g_strdup_printf (_("no display: cannot open display '%s'"),
                               wayland != NULL && *wayland != '\0' ? wayland : x11);
  hint = g_strdup_printf (_("to write the flame graph without a window, run %s --export [-o DIR] DB|FOLDER"), PROG);
  afg_cli_print_error (message, hint);
  return AFG_EXIT_USAGE;
}

static void
on_progress (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  Progress *p = data;
  gint64 now = g_get_monotonic_time ();

  /* Only the row count is throttled; a new phase shows at once (the
   * opening one has nothing to show, and must not hold back the rows). */
  if (!p->tty || phase == AFG_LOAD_PHASE_OPENING)
    return;
  if (phase == AFG_LOAD_PHASE_READING && now - p->last_print < 100000)
    return;
  p->last_print = now;
  if (phase == AFG_LOAD_PHASE_READING)
    {
      g_printerr ("\r");
      /* %' groups the digits as LC_NUMERIC says (3,211,264). */
      g_printerr (_("reading rows: %'" PRIu64 " of ~%'" PRIu64), rows, total);
      g_printerr ("   ");
    }
  else if (phase == AFG_LOAD_PHASE_BUILDING)
    g_printerr ("\r%-60s", _("building the flame graph…"));
}

/* -f JSON is -f json: the value is matched in any case. */
static gboolean
parse_format (const char *text, AfgFormat *format)
{
  g_autofree char *lower = NULL;

  if (text == NULL)
    return TRUE;
  lower = g_ascii_strdown (text, -1);
  return afg_format_from_string (lower, format);
}

/* -f summary is not an AfgFormat: it is one rank's share of a job, which
 * only a single DB's export writes. Matched in any case, like the rest. */
static gboolean
is_summary_format (const char *text)
{
  return text != NULL && g_ascii_strcasecmp (text, "summary") == 0;
}

/* Caught before the load, which may take a while on a large DB. */
static gboolean
output_is_file (const char *output)
{
  g_autofree char *shown = NULL;
  g_autofree char *message = NULL;

  if (output == NULL || !g_file_test (output, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  shown = afg_format_path (output);
  message = g_strdup_printf (_("%s: -o takes a directory; %s is a file"), shown, shown);
  afg_cli_print_error (message, _("give -o the directory that receives flamegraph.html, .json or .folded"));
  return TRUE;
}

/* --steps A or A-B, checked against the steps the DB has; with
 * --npu-idle, the device's free instants of those steps (or all). */
static gboolean
scope_from_options (const CliOptions *opts, const AfgDocument *document, AfgScope *scope, GError **error)
{
  return afg_scope_init_request (scope, document, opts->steps != NULL, opts->first_step, opts->last_step,
                                 opts->npu_idle, error);
}

/* Before loading: a malformed --steps is a usage error, not a DB's. */
static gboolean
parse_steps_option (CliOptions *opts)
{
  g_autofree char *message = NULL;

  if (opts->steps == NULL || afg_scope_parse_steps (opts->steps, &opts->first_step, &opts->last_step))
    return TRUE;
  message = g_strdup_printf (_("invalid --steps '%s'"), opts->steps);
  afg_cli_print_error (message, _("use --steps A or --steps A-B, where A and B are step numbers (ProfilerStep#N)"));
  return FALSE;
}

/* --top N: a quick look over ssh, on stdout (the summary stays on stderr). */
static void
print_top (const AfgTree *tree, int n, AfgWeight weight, gboolean kernels)
{
  g_autoptr(GString) table = g_string_new (NULL);

  if (kernels)
    afg_top_write_kernels (tree, (guint) n, weight, table);
  else
    afg_top_write (tree, (guint) n, weight, table);
  fwrite (table->str, 1, table->len, stdout);
  fflush (stdout);
}

/* A DB that cannot give the trace its device tasks still gets its host
 * tracks, with a warning. */
static gboolean
write_output (const CliOptions *opts, const AfgTree *tree, AfgFormat format, AfgWeight weight,
              char **out_path, GError **error)
{
  AfgExportOptions options = { format, weight, opts->kernels, NULL };
  g_autofree char *warning = NULL;
  gboolean ok = afg_export_to_dir (tree, &options, opts->output ? opts->output : ".", out_path, &warning, error);

  if (warning != NULL && !opts->quiet)
    afg_cli_print_warning (PROG, warning);
  return ok;
}

static AfgCliRanksOptions
ranks_options (const CliOptions *opts, AfgFormat format, AfgWeight weight)
{
  return (AfgCliRanksOptions) { opts->output, format, weight, opts->kernels, opts->steps != NULL, opts->first_step,
                                opts->last_step, opts->quiet, opts->merge_addresses, opts->npu_idle,
                                opts->job_root };
}

/* -f summary: one rank's figures for --merge-summaries (afg-cli-ranks.c). */
static int
export_summary (CliOptions *opts)
{
  AfgCliRanksOptions ranks;

  if (opts->top != TOP_UNSET || opts->kernels || opts->weight != NULL)
    return usage_error (_("-f summary takes no --top, --kernels or --weight"));
  /* A rank's figures are of its whole tree, as the folder export's are. */
  if (opts->transforms != NULL)
    return usage_error (_("-f summary takes no transforms (--focus-function, --merge-function, …): "
                          "a job's ranks are summarised untransformed"));
  if (output_is_file (opts->output))
    return AFG_EXIT_WRITE_FAILED;
  if (!parse_steps_option (opts))
    return AFG_EXIT_USAGE;
  if (afg_job_folder_is_folder (opts->files[0]))
    return usage_error (_("-f summary takes one rank's DB; a folder's ranks are summarised by --export FOLDER"));
  ranks = ranks_options (opts, AFG_FORMAT_JSON, AFG_WEIGHT_HOST);
  return afg_cli_summary_export (opts->files[0], &ranks);
}

/* --merge-summaries S1.json …: the job's ranks.json and index.html. */
static int
run_merge (CliOptions *opts, guint n_files)
{
  AfgFormat format = AFG_FORMAT_HTML;
  AfgCliRanksOptions ranks;

  if (n_files == 0)
    return usage_error (_("--merge-summaries needs the summary-rank{N}.json files"));
  if ((opts->format != NULL && (!parse_format (opts->format, &format)
                                || (format != AFG_FORMAT_HTML && format != AFG_FORMAT_JSON)))
      || opts->export || opts->diff || opts->top != TOP_UNSET || opts->kernels || opts->weight != NULL
      || opts->steps != NULL || opts->npu_idle || opts->merge_addresses || opts->job_root != NULL
      || opts->transforms != NULL)
    return usage_error (_("--merge-summaries takes only -o DIR, -f html or json and -q: the options "
                          "are those the summaries were made with"));
  if (output_is_file (opts->output))
    return AFG_EXIT_WRITE_FAILED;
  ranks = ranks_options (opts, format, AFG_WEIGHT_HOST);
  return afg_cli_ranks_merge ((const char * const *) opts->files, &ranks);
}

/* Whether the tree is written: with --export, or without the window
 * (-Dgui=disabled) unless --top alone asks for its table. */
static gboolean
exporting (const CliOptions *opts)
{
  return opts->export || (!HAVE_GUI && opts->top == TOP_UNSET);
}

/* A job folder instead of a DB: every rank (afg-cli-ranks.c). */
static int
export_folder (const CliOptions *opts, AfgFormat format, AfgWeight weight)
{
  AfgCliRanksOptions ranks = ranks_options (opts, format, weight);

  if (format == AFG_FORMAT_TRACE || opts->top != TOP_UNSET || !exporting (opts))
    return usage_error (_("a job folder takes --export with -f html, json or folded"));
  if (opts->transforms != NULL)
    return usage_error (_("the transforms (--focus-function, --merge-function, …) take one DB or --diff, not a job folder"));
  return afg_cli_ranks_export (opts->files[0], &ranks);
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
  AfgWeight weight = AFG_WEIGHT_HOST;
  AfgTreeFlags flags = AFG_TREE_DURATIONS | (opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : 0);
  AfgScope scope;
  g_autoptr(GPtrArray) transform_warnings = NULL;

  if (opts->top != TOP_UNSET && opts->top < 1)
    return usage_error (_("--top needs a positive number"));
  if (!exporting (opts) && (opts->output != NULL || opts->format != NULL))
    return usage_error (opts->output != NULL ? _("-o works only with --export: --top alone prints its table")
                                             : _("-f works only with --export: --top alone prints its table"));
  if (is_summary_format (opts->format))
    return export_summary (opts);
  if (opts->job_root != NULL)
    return usage_error (_("--job-root goes with -f summary"));
  if (!parse_format (opts->format, &format))
    {
      g_autofree char *message = g_strdup_printf (_("unknown format '%s'"), opts->format);

      afg_cli_print_error (message, _("use -f html, -f json, -f folded or -f trace"));
      return AFG_EXIT_USAGE;
    }
  if (output_is_file (opts->output))
    return AFG_EXIT_WRITE_FAILED;
  if (opts->weight != NULL && !afg_weight_from_string (opts->weight, &weight))
    {
      g_autofree char *message = g_strdup_printf (_("unknown weight '%s'"), opts->weight);

      afg_cli_print_error (message, _("use --weight host, npu, compute, comm or exposed"));
      return AFG_EXIT_USAGE;
    }
  if (opts->kernels && !afg_weight_has_kernels (weight))
    return usage_error (_("--kernels needs --weight compute, comm or exposed"));
  if (opts->npu_idle && format == AFG_FORMAT_TRACE)
    return usage_error (_("--npu-idle does not work with -f trace: a trace shows every instant"));
  if (opts->npu_idle && weight != AFG_WEIGHT_HOST)
    return usage_error (_("--npu-idle weighs host time: nothing runs on the device then"));
  if (!parse_steps_option (opts))
    return AFG_EXIT_USAGE;
  if (opts->transforms != NULL && exporting (opts) && format == AFG_FORMAT_TRACE)
    return usage_error (_("-f trace is every row on its timeline: the transforms apply to -f html, json and folded"));
  if (afg_job_folder_is_folder (opts->files[0]))
    return export_folder (opts, format, weight);
  afg_huge_advise_heap ();
  document = afg_document_load (opts->files[0], NULL, on_progress, &progress, &error);
  if (document != NULL && scope_from_options (opts, document, &scope, &error))
    tree = afg_tree_build (document, &scope, flags, NULL, &error);
  if (tree != NULL && opts->transforms != NULL)
    {
      g_autofree gboolean *named = g_new0 (gboolean, afg_transform_list_get_length (opts->transforms));
      AfgTree *transformed = afg_tree_transform_named (tree, opts->transforms, named, NULL, &error);

      if (transformed != NULL)
        transform_warnings = afg_cli_transform_warnings (tree, opts->transforms, named, transformed);
      g_clear_pointer (&tree, afg_tree_unref);
      tree = transformed;
    }
  if (progress.last_print != 0)
    g_printerr ("\r%60s\r", "");
  if (tree == NULL)
    return afg_cli_report_build_error (error, document);
  seconds = (g_get_monotonic_time () - started) / 1e6;
  if (opts->top != TOP_UNSET)
    print_top (tree, opts->top, weight, opts->kernels);
  if (exporting (opts) && !write_output (opts, tree, format, weight, &out_path, &error))
    return afg_cli_report_export_error (error, document);
  if (opts->quiet)
    return AFG_EXIT_OK;
  afg_cli_print_warnings (PROG, tree, weight);
  afg_cli_print_warning_list (PROG, AFG_CLI_NO_RANK, transform_warnings);
  if (exporting (opts))
    afg_cli_print_tree_summary (tree, seconds, out_path);
  return AFG_EXIT_OK;
}

/* The two DBs' difference (afg-cli-diff.c). */
static int
run_diff (CliOptions *opts, guint n_files)
{
  AfgCliDiffOptions diff = { opts->output, AFG_FORMAT_HTML, opts->merge_addresses, opts->steps != NULL,
                             0, 0, opts->quiet, AFG_WEIGHT_HOST, opts->npu_idle, opts->transforms };
  g_autofree char *usage = g_strdup_printf (_("usage: %s --diff A.db B.db --export [-o DIR] [-f html|json|folded] "
                                              "[--weight host|npu|compute|comm|exposed] [--steps A[-B]] "
                                              "[--npu-idle] [--merge-addresses] [-q]"), PROG);

  /* Without the window (-Dgui=disabled) the export is implied, as for one DB. */
  if (n_files != 2 || (HAVE_GUI && !opts->export) || opts->kernels || opts->top != TOP_UNSET)
    {
      afg_cli_print_error (n_files != 2 ? _("--diff takes two databases, A and B")
                           : opts->kernels ? _("--diff takes no --kernels")
                           : opts->top != TOP_UNSET ? _("--diff takes no --top")
                           : _("--diff with options writes with --export (--diff A.db B.db alone opens the window)"),
                           usage);
      return AFG_EXIT_USAGE;
    }
  if (opts->weight != NULL && !afg_weight_from_string (opts->weight, &diff.weight))
    {
      g_autofree char *message = g_strdup_printf (_("unknown weight '%s'"), opts->weight);

      afg_cli_print_error (message, _("use --weight host, npu, compute, comm or exposed"));
      return AFG_EXIT_USAGE;
    }
  if (opts->npu_idle && diff.weight != AFG_WEIGHT_HOST)
    {
      afg_cli_print_error (_("--npu-idle weighs host time: nothing runs on the device then"), usage);
      return AFG_EXIT_USAGE;
    }
  if (!parse_format (opts->format, &diff.format) || diff.format == AFG_FORMAT_TRACE)
    {
      g_autofree char *message = diff.format == AFG_FORMAT_TRACE
                                   ? g_strdup (_("-f trace is one profile's timeline, not a diff"))
                                   : is_summary_format (opts->format)
                                   ? g_strdup (_("-f summary is one rank's share of a job, not a diff"))
                                   : g_strdup_printf (_("unknown format '%s'"), opts->format);

      afg_cli_print_error (message, _("a diff is written with -f html, -f json or -f folded"));
      return AFG_EXIT_USAGE;
    }
  if (output_is_file (opts->output))
    return AFG_EXIT_WRITE_FAILED;
  if (!parse_steps_option (opts))
    return AFG_EXIT_USAGE;
  diff.first_step = opts->first_step;
  diff.last_step = opts->last_step;
  return afg_cli_diff_export (opts->files[0], opts->files[1], &diff);
}

/* The window takes a DB and nothing else: one option given that needs
 * --export (or --top), named (-o and -f first, as only --export takes
 * them). */
static char *
needs_export (const CliOptions *opts)
{
  const char *export_only = opts->output != NULL ? "-o" : opts->format != NULL ? "-f" : NULL;
  const char *top_too = opts->quiet ? "-q" : opts->weight != NULL ? "--weight" : opts->kernels ? "--kernels"
                        : opts->steps != NULL ? "--steps" : opts->npu_idle ? "--npu-idle"
                        : opts->merge_addresses ? "--merge-addresses" : NULL;

  if (opts->transforms != NULL)
    return g_strdup (_("the transforms (--focus-function, --merge-function, …) work only with --export, --top "
                       "or --diff"));
  if (export_only != NULL)
    return g_strdup_printf (_("%s works only with --export"), export_only);
  if (top_too != NULL)
    return g_strdup_printf (_("%s works only with --export or --top"), top_too);
  if (opts->job_root != NULL)
    return g_strdup (_("--job-root goes with --export -f summary"));
  return g_strdup (_("the options given work only with --export"));
}

/* What is left once the options are parsed: the version, an export, or a
 * usage error. Without the window (-Dgui=disabled) an export is implied. */
static int
run_parsed (CliOptions *opts)
{
  guint n_files = opts->files != NULL ? g_strv_length (opts->files) : 0;

  afg_huge_init ();  /* one shot: big buffers mapped and returned on their own */
  if (opts->version)
    {
      g_print ("%s %s\n", PROG, PACKAGE_VERSION);
      return AFG_EXIT_OK;
    }
  if (opts->merge_summaries)
    return run_merge (opts, n_files);
  if (opts->diff)
    return run_diff (opts, n_files);
  /* --top alone prints the table and writes nothing. */
  if (HAVE_GUI && !opts->export && opts->top == TOP_UNSET)
    {
      g_autofree char *message = needs_export (opts);

      return usage_error (message);
    }
  /* "--steps DB": the DB was taken as the steps; say what is wrong with them. */
  if (n_files == 0 && opts->steps != NULL && !parse_steps_option (opts))
    return AFG_EXIT_USAGE;
  if (n_files != 1)
    return usage_error (n_files == 0 ? _("no database given") : _("give exactly one database"));
  return run_export (opts);
}

/* --merge-function F and the others, in the order given: they apply in it. */
static gboolean
on_transform (const char *option_name, const char *value, gpointer data, GError **error)
{
  CliOptions *opts = data;
  g_autoptr(GError) local = NULL;
  AfgTransformOp op;

  if (!afg_transform_op_from_string (option_name + 2, &op))
    g_return_val_if_reached (FALSE);
  if (opts->transforms == NULL)
    opts->transforms = afg_transform_list_new ();
  if (afg_transform_list_append (opts->transforms, op, value, &local))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s", option_name, local->message);
  return FALSE;
}

static GOptionContext *
make_context (GOptionEntry *entries, CliOptions *opts)
{
  GOptionContext *context = g_option_context_new (NULL);
  GOptionGroup *group = g_option_group_new (NULL, NULL, NULL, opts, NULL);
  g_autofree char *description = g_strdup_printf (
    _("Open each DB in a window, or a training job's FOLDER with every rank's DB in it:\n"
      "  %s [DB|FOLDER…]\n"
      "Write the flame graph without a window (no display needed):\n"
      "  %s --export [-o DIR] [-f html|json|folded|trace] [--weight host|npu|compute|comm|exposed [--kernels]] [--steps A[-B]] [--npu-idle] [--merge-addresses] [-q] DB|FOLDER\n"
      "  (a FOLDER writes DIR/rank{N}/flamegraph.* and DIR/ranks.json, with html DIR/index.html)\n"
      "A job in parallel anywhere: each rank's summary, then the job's ranks.json and index.html:\n"
      "  %s --export -f summary [--job-root JOB] [--steps A[-B]] [--npu-idle] [--merge-addresses] [-o DIR] DB\n"
      "  %s --merge-summaries [-f html|json] [-q] -o DIR DIR/summary-rank*.json\n"
      "Weights (folded stacks, --top, --diff): host (CPU time), npu (all device tasks launched),\n"
      "  compute (compute tasks: kernels), comm (collectives, each with its own duration),\n"
      "  exposed (the part of the collectives no compute task hides). --kernels puts the\n"
      "  device weights on ';[compute] NAME' and ';[communication] NAME' leaves under their\n"
      "  frames; with --top it lists the kernels across frames. -f trace gives each device\n"
      "  task its kind (compute, communication, other) as its category.\n"
      "Compare two DBs in a window, or write their difference:\n"
      "  %s --diff A.db B.db\n"
      "  %s --diff A.db B.db --export [-o DIR] [-f html|json|folded] [--weight WEIGHT] [--steps A[-B]] [--npu-idle] [--merge-addresses] [-q]\n"
      "Reshape the tree of one DB (--export -f html|json|folded, --top) or of both sides of --diff:\n"
      "  --focus-function F, --focus-subtree A;B;C, --merge-function F, --drop-function F,\n"
      "  --collapse-recursion F, --collapse-indirect-recursion F; each may be repeated, and they apply\n"
      "  in the order given. F is a frame's full name, or /REGEX/: an unanchored search in JavaScript\n"
      "  syntax without flags (e.g. '/^torch\\//'); //NAME is a name that starts with '/'. In A;B;C,\n"
      "  write \\; for a ';' in a name and \\\\ for a '\\'.\n"
      "\n"
      "Exit status: 0 ok, 1 bad input, 2 usage or no display, 3 the output cannot be written."),
    PROG, PROG, PROG, PROG, PROG, PROG);

  g_option_context_set_summary (context, _("Flame graph of the host CPU calls in an Ascend PyTorch profiler database."));
  g_option_context_set_description (context, description);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  return context;
}

int
afg_cli_main (int argc, char **argv)
{
  CliOptions opts = { .top = TOP_UNSET };
  GOptionEntry entries[] = {
    { "export", 0, 0, G_OPTION_ARG_NONE, &opts.export, N_("Write the flame graph without a window"), NULL },
    { "diff", 0, 0, G_OPTION_ARG_NONE, &opts.diff, N_("Compare two DBs, A and B (with --export: write the difference)"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &opts.version, N_("Print the version and exit"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts.output, N_("Output directory (default: current)"), N_("DIR") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &opts.format, N_("html (default), json, folded or trace"), N_("FORMAT") },
    { "weight", 0, 0, G_OPTION_ARG_STRING, &opts.weight, N_("What stacks, --top and --diff weigh: host (default), npu, compute, comm or exposed"), N_("WEIGHT") },
    { "kernels", 0, 0, G_OPTION_ARG_NONE, &opts.kernels, N_("With --weight compute, comm or exposed: the device kernels as leaves (with --top: the kernels)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts.quiet, N_("Print errors only"), NULL },
    { "steps", 0, 0, G_OPTION_ARG_STRING, &opts.steps, N_("Only training steps A to B (ProfilerStep#N)"), N_("A[-B]") },
    { "npu-idle", 0, 0, G_OPTION_ARG_NONE, &opts.npu_idle, N_("Only the time the NPU is idle, in each step (with --steps, those steps); host time"), NULL },
    { "merge-addresses", 0, 0, G_OPTION_ARG_NONE, &opts.merge_addresses, N_("Merge names that differ only in an address (' at 0x…')"), NULL },
    { "merge-summaries", 0, 0, G_OPTION_ARG_NONE, &opts.merge_summaries, N_("Write a job's ranks.json and index.html from the summaries given (made with -f summary)"), NULL },
    { "job-root", 0, 0, G_OPTION_ARG_FILENAME, &opts.job_root, N_("With -f summary: the job folder the DB's path is given relative to"), N_("DIR") },
    { "top", 0, 0, G_OPTION_ARG_INT, &opts.top, N_("Print the N functions with the most self time (without --export: only that)"), N_("N") },
    { "focus-function", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Only F's outermost frames, each with its subtree, merged at the top"), N_("F") },
    { "focus-subtree", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Only the frame at the path A;B;C from a thread's top, with its subtree"), N_("A;B;C") },
    { "merge-function", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Remove F's frames; their children move to their parents"), N_("F") },
    { "drop-function", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Remove F's frames with their subtrees and their time"), N_("F") },
    { "collapse-recursion", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Merge an F frame called directly by F into its caller"), N_("F") },
    { "collapse-indirect-recursion", 0, 0, G_OPTION_ARG_CALLBACK, on_transform, N_("Merge every F frame below another F frame into the outermost"), N_("F") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opts.files, NULL, N_("[DB|FOLDER…]") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = make_context (entries, &opts);
  g_autoptr(GError) error = NULL;
  int status;

  if (!g_option_context_parse (context, &argc, &argv, &error))
    status = usage_error (error->message);
  else
    status = run_parsed (&opts);
  g_free (opts.output);
  g_free (opts.format);
  g_free (opts.weight);
  g_free (opts.steps);
  g_free (opts.job_root);
  g_strfreev (opts.files);
  g_clear_pointer (&opts.transforms, afg_transform_list_unref);
  return status;
}
