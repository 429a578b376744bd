/* SPDX-License-Identifier: MIT */
/* The device side of a document in time: what each instant of the NPU
 * did, and the free instants that the NPU-idle scope is made of. */
#include "config.h"

#include "afg-document-private.h"
#include "afg-document-timeline.h"

void
_afg_document_set_timeline (AfgDocument *self, AfgDeviceTimeline *timeline)
{
  g_clear_pointer (&self->timeline, afg_device_timeline_unref);
  self->timeline = timeline;
}

void
_afg_document_set_collectives (AfgDocument *self, GArray *collectives)
{
  g_clear_pointer (&self->collectives, g_array_unref);
  self->collectives = collectives;
}

const AfgDocCollective *
afg_document_get_collectives (const AfgDocument *self, gsize *n)
{
  g_return_val_if_fail (self != NULL, NULL);
  *n = self->collectives != NULL ? self->collectives->len : 0;
  return self->collectives != NULL ? (const AfgDocCollective *) self->collectives->data : NULL;
}

void
_afg_document_clear_timeline (AfgDocument *self)
{
  g_clear_pointer (&self->timeline, afg_device_timeline_unref);
  g_clear_pointer (&self->collectives, g_array_unref);
  g_clear_pointer (&self->idle_sets, g_hash_table_unref);
  g_mutex_clear (&self->idle_lock);
}

const AfgDeviceTimeline *
afg_document_get_timeline (const AfgDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->timeline;
}

gboolean
afg_document_get_profile_window (const AfgDocument *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (self->steps->len > 0)
    {
      /* Steps come by id, which a hostile DB need not number in time. */
      *start = G_MAXINT64;
      *end = G_MININT64;
      for (guint i = 0; i < self->steps->len; i++)
        {
          const AfgStep *step = &g_array_index (self->steps, AfgStep, i);

          *start = MIN (*start, step->start_ns);
          *end = MAX (*end, step->end_ns);
        }
      return *end >= *start;
    }
  return self->timeline != NULL && afg_device_timeline_bounds (self->timeline, start, end);
}

/* The cache's key of the whole profile's window; a range of steps is
 * first << 32 | last, and last < 2^32 - 1. */
#define WHOLE_WINDOW G_MAXUINT64

static AfgSpans *
make_idle (const AfgDocument *self, guint64 key)
{
  g_autofree AfgSpan *windows = NULL;
  guint first = (guint) (key >> 32), last = (guint) key;
  guint n = 0;

  if (key == WHOLE_WINDOW)
    {
      AfgSpan whole;

      if (!afg_document_get_profile_window (self, &whole.start, &whole.end))
        return NULL;
      return afg_device_timeline_idle (self->timeline, &whole, 1);
    }
  windows = g_new (AfgSpan, last - first + 1);
  for (guint i = first; i <= last; i++)
    {
      const AfgStep *step = &g_array_index (self->steps, AfgStep, i);

      windows[n++] = (AfgSpan) { step->start_ns, step->end_ns };
    }
  return afg_device_timeline_idle (self->timeline, windows, n);
}

/* Made once for @key and kept with the document. */
static const AfgSpans *
cached_idle (const AfgDocument *self, guint64 key)
{
  AfgDocument *doc = (AfgDocument *) self;  /* a cache: the document's content stays as it is */
  AfgSpans *spans;

  g_mutex_lock (&doc->idle_lock);
  if (doc->idle_sets == NULL)
    doc->idle_sets = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                            (GDestroyNotify) afg_spans_unref);
  spans = g_hash_table_lookup (doc->idle_sets, &key);
  if (spans == NULL && (spans = make_idle (self, key)) != NULL)
    g_hash_table_insert (doc->idle_sets, g_memdup2 (&key, sizeof key), spans);
  g_mutex_unlock (&doc->idle_lock);
  return spans;
}

const AfgSpans *
afg_document_get_idle_spans (const AfgDocument *self, guint first, guint last)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (self->timeline == NULL || (self->steps->len > 0 && (first > last || last >= self->steps->len)))
    return NULL;
  return cached_idle (self, self->steps->len > 0 ? (guint64) first << 32 | last : WHOLE_WINDOW);
}

const AfgSpans *
afg_document_get_free_spans (const AfgDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->timeline != NULL ? cached_idle (self, WHOLE_WINDOW) : NULL;
}
