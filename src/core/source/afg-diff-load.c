/* SPDX-License-Identifier: MIT */
/* The two sides of a diff of two DBs, read and built side by side: the
 * command line's --diff and the window's comparison. */
#include "config.h"

#include "afg-diff-load.h"
#include "afg-scope.h"
#include "afg-tree-builder.h"

typedef struct {
  const char               *path;
  const AfgDiffLoadOptions *options;
  gpointer                  progress_data;
  GCancellable             *cancellable;
  AfgDiffSideLoad          *out;
} SideRead;

static AfgTree *
build_tree (SideRead *side, AfgDocument *document, GError **error)
{
  const AfgDiffLoadOptions *o = side->options;
  AfgScope scope = { 0 };

  if (!afg_scope_init_request (&scope, document, o->has_steps, o->first_step, o->last_step, o->npu_idle, error))
    return NULL;
  return afg_tree_build (document, &scope, o->flags, side->cancellable, error);
}

static gpointer
load_side (gpointer data)
{
  SideRead *side = data;
  AfgDiffSideLoad *out = side->out;

  out->document = afg_document_load (side->path, side->cancellable, side->options->progress, side->progress_data,
                                     &out->error);
  if (out->document != NULL)
    out->tree = build_tree (side, out->document, &out->error);
  if (side->options->finish != NULL)
    side->options->finish (out, side->options->finish_data);
  return NULL;
}

void
afg_diff_load (const char * const paths[2], const AfgDiffLoadOptions *options, GCancellable *cancellable,
               AfgDiffSideLoad sides[2])
{
  SideRead sides_read[2];
  GThread *other;

  g_return_if_fail (paths != NULL && options != NULL && sides != NULL);

  for (guint s = 0; s < 2; s++)
    {
      sides_read[s] = (SideRead) { paths[s], options, options->progress_data[s], cancellable, &sides[s] };
      sides[s] = (AfgDiffSideLoad) { NULL, NULL, NULL };
    }
  other = g_thread_new ("afg-diff-b", load_side, &sides_read[1]);
  load_side (&sides_read[0]);
  g_thread_join (other);
}

void
afg_diff_side_load_clear (AfgDiffSideLoad *side)
{
  g_clear_pointer (&side->tree, afg_tree_unref);
  g_clear_pointer (&side->document, afg_document_unref);
  g_clear_error (&side->error);
}
