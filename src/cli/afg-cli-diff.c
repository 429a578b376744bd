/* SPDX-License-Identifier: MIT */
/* --diff A B --export, the difference of two profiles. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-cli-diff.h"
#include "afg-cli-report.h"
#include "afg-diff-load.h"
#include "afg-diff-writers.h"
#include "afg-tree-transform.h"

#define PROG AFG_CLI_PROG

typedef struct {
  const AfgTransformList *transforms;
  AfgDiffSideLoad        *sides;     /* A and B */
  GPtrArray              *warnings[2];
} Transforming;

/* On the side's own thread (AfgDiffSideFunc): each side keeps its own
 * warnings. */
static void
transform_side (AfgDiffSideLoad *side, gpointer data)
{
  Transforming *t = data;
  g_autofree gboolean *named = NULL;
  AfgTree *transformed;

  if (side->tree == NULL)
    return;
  named = g_new0 (gboolean, afg_transform_list_get_length (t->transforms));
  transformed = afg_tree_transform_named (side->tree, t->transforms, named, NULL, &side->error);
  /* @side is &sides[0] or &sides[1] of the array given to afg_diff_load(). */
  if (transformed != NULL)
    t->warnings[side - t->sides] = afg_cli_transform_warnings (side->tree, t->transforms, named, transformed);
  afg_tree_unref (side->tree);
  side->tree = transformed;
}

static int
write_diff (const char * const paths[2], AfgDiffSideLoad *sides, GPtrArray **warnings, const AfgCliDiffOptions *opts,
            gint64 started)
{
  g_autofree char *title = g_strdup_printf ("%s \xe2\x86\x94 %s", paths[0], paths[1]);
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
          g_autofree char *who = g_strdup_printf (_("%s: %c %s"), PROG, 'A' + s,
                                                  afg_document_get_source_name (sides[s].document));

          afg_cli_print_warnings (who, sides[s].tree, opts->weight);
          afg_cli_print_warning_list (who, AFG_CLI_NO_RANK, warnings[s]);
        }
      afg_cli_print_diff_summary (diff, (g_get_monotonic_time () - started) / 1e6, out_path);
    }
  return AFG_EXIT_OK;
}

int
afg_cli_diff_export (const char *a, const char *b, const AfgCliDiffOptions *opts)
{
  const char * const paths[2] = { a, b };
  AfgDiffSideLoad sides[2];
  Transforming transforming = { opts->transforms, sides };
  AfgDiffLoadOptions options = {
    .flags = opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : AFG_TREE_FLAGS_NONE,
    .has_steps = opts->has_steps, .first_step = opts->first_step, .last_step = opts->last_step,
    .npu_idle = opts->npu_idle,
    .finish = opts->transforms != NULL ? transform_side : NULL, .finish_data = &transforming,
  };
  gint64 started = g_get_monotonic_time ();
  int status = AFG_EXIT_OK;

  afg_diff_load (paths, &options, NULL, sides);
  /* A's error first, as the command line names them. */
  for (guint s = 0; s < 2 && status == AFG_EXIT_OK; s++)
    if (sides[s].tree == NULL)
      status = afg_cli_report_build_error (sides[s].error, sides[s].document);
  if (status == AFG_EXIT_OK)
    status = write_diff (paths, sides, transforming.warnings, opts, started);
  for (guint s = 0; s < 2; s++)
    {
      afg_diff_side_load_clear (&sides[s]);
      g_clear_pointer (&transforming.warnings[s], g_ptr_array_unref);
    }
  return status;
}
