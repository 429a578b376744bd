/* SPDX-License-Identifier: MIT */
/* --diff A B --export, the difference of two profiles. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-cli-diff.h"
#include "afg-cli-report.h"
#include "afg-diff-writers.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-tree-transform.h"

#define PROG AFG_CLI_PROG

typedef struct {
  const char              *path;
  const AfgCliDiffOptions *opts;
  AfgDocument             *document;
  AfgTree                 *tree;
  GError                  *error;
} Side;

static gpointer
load_side (gpointer data)
{
  Side *side = data;
  const AfgCliDiffOptions *opts = side->opts;
  AfgTreeFlags flags = opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : AFG_TREE_FLAGS_NONE;
  AfgScope scope = { 0 };

  side->document = afg_document_load (side->path, NULL, NULL, NULL, &side->error);
  if (side->document == NULL)
    return NULL;
  if (!afg_scope_init_request (&scope, side->document, opts->has_steps, opts->first_step, opts->last_step,
                               opts->npu_idle, &side->error))
    return NULL;
  side->tree = afg_tree_build (side->document, &scope, flags, NULL, &side->error);
  if (side->tree != NULL && opts->transforms != NULL)
    {
      AfgTree *transformed = afg_tree_transform (side->tree, opts->transforms, NULL, &side->error);

      afg_tree_unref (side->tree);
      side->tree = transformed;
    }
  return NULL;
}

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->tree, afg_tree_unref);
  g_clear_pointer (&side->document, afg_document_unref);
  g_clear_error (&side->error);
}

/* B on a thread of its own while A loads here: the two on both cores. */
static void
load_sides (Side *sides)
{
  GThread *thread = g_thread_new ("afg-diff-b", load_side, &sides[AFG_DIFF_SIDE_B]);

  load_side (&sides[AFG_DIFF_SIDE_A]);
  g_thread_join (thread);
}

static int
write_diff (Side *sides, const AfgCliDiffOptions *opts, gint64 started)
{
  g_autofree char *title = g_strdup_printf ("%s \xe2\x86\x94 %s", sides[0].path, sides[1].path);
  g_autoptr(AfgDiffShape) diff = afg_diff_shape_new_weighted (sides[0].tree, sides[1].tree, title,
                                                              afg_weight_get_total_column (opts->weight), NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *out_path = NULL;

  if (!afg_diff_export_to_dir (diff, opts->format, opts->output ? opts->output : ".", &out_path, &error))
    return afg_cli_report_export_error (error, NULL);
  if (!opts->quiet)
    {
      for (guint s = 0; s < 2; s++)
        {
          g_autofree char *who = g_strdup_printf ("%s: %c %s", PROG, 'A' + s,
                                                  afg_document_get_source_name (sides[s].document));

          afg_cli_print_warnings (who, sides[s].tree, opts->weight);
        }
      afg_cli_print_diff_summary (diff, (g_get_monotonic_time () - started) / 1e6, out_path);
    }
  return AFG_EXIT_OK;
}

int
afg_cli_diff_export (const char *a, const char *b, const AfgCliDiffOptions *opts)
{
  Side sides[2] = { { a, opts }, { b, opts } };
  gint64 started = g_get_monotonic_time ();
  int status = AFG_EXIT_OK;

  load_sides (sides);
  /* A's error first, as the command line names them. */
  for (guint s = 0; s < 2 && status == AFG_EXIT_OK; s++)
    if (sides[s].tree == NULL)
      status = afg_cli_report_build_error (sides[s].error, sides[s].document);
  if (status == AFG_EXIT_OK)
    status = write_diff (sides, opts, started);
  for (guint s = 0; s < 2; s++)
    side_clear (&sides[s]);
  return status;
}
