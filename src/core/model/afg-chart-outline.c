/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-chart-outline.h"
#include "afg-path-mapper.h"

struct _AfgChartOutline {
  AfgChartStore    *store;
  AfgTransformList *transforms;
  GPtrArray        *target;    /* char *, owned */
  guint             thread;
  gboolean          merge;
  gint64            t0;
  gint64            t1;
};

/* What each distinct path of the store is judged with. */
typedef struct {
  AfgDocument   *document;
  AfgPathMapper *mapper;
  GPtrArray     *target;
  GPtrArray     *names;    /* scratch: the path's strings, then mapped */
} Judge;

AfgChartOutline *
afg_chart_outline_new (AfgChartStore *store, guint thread, gboolean merge, gint64 t0, gint64 t1,
                       const AfgTransformList *transforms, const char * const *target, guint n_target)
{
  AfgChartOutline *self;

  g_return_val_if_fail (store != NULL && transforms != NULL, NULL);
  self = g_new0 (AfgChartOutline, 1);
  self->store = afg_chart_store_ref (store);
  self->transforms = afg_transform_list_ref ((AfgTransformList *) transforms);
  self->target = g_ptr_array_new_full (n_target, g_free);
  for (guint k = 0; k < n_target; k++)
    g_ptr_array_add (self->target, g_strdup (target[k]));
  self->thread = thread;
  self->merge = merge;
  self->t0 = t0;
  self->t1 = t1;
  return self;
}

void
afg_chart_outline_free (AfgChartOutline *self)
{
  if (self == NULL)
    return;
  afg_chart_store_unref (self->store);
  afg_transform_list_unref (self->transforms);
  g_ptr_array_unref (self->target);
  g_free (self);
}

guint
afg_chart_outline_get_thread (const AfgChartOutline *self)
{
  return self->thread;
}

static gboolean
lands_on_target (const guint32 *names, guint n, gpointer data)
{
  Judge *j = data;

  g_ptr_array_set_size (j->names, 0);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (j->names, (gpointer) afg_document_get_string (j->document, names[k]));
  if (!afg_path_mapper_map (j->mapper, j->names) || j->names->len != j->target->len)
    return FALSE;
  for (guint k = 0; k < j->names->len; k++)
    if (strcmp (g_ptr_array_index (j->names, k), g_ptr_array_index (j->target, k)) != 0)
      return FALSE;
  return TRUE;
}

GArray *
afg_chart_outline_run (AfgChartOutline *self, GCancellable *cancellable)
{
  g_autoptr(AfgPathMapper) mapper = afg_path_mapper_new (self->transforms);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  Judge judge = { afg_chart_store_get_document (self->store), mapper, self->target, names };

  if (mapper == NULL)
    return g_array_new (FALSE, FALSE, sizeof (guint64));
  return afg_chart_store_find_rows_by_path (self->store, self->thread, self->merge, self->t0, self->t1,
                                            lands_on_target, &judge, cancellable);
}
