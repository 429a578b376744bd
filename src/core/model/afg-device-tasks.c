/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "afg-device-tasks.h"

AfgDeviceTasks *
afg_device_tasks_new (void)
{
  AfgDeviceTasks *self = g_new0 (AfgDeviceTasks, 1);

  self->tracks = g_array_new (FALSE, FALSE, sizeof (AfgDeviceTrack));
  self->launches = g_array_new (FALSE, FALSE, sizeof (AfgDeviceLaunch));
  self->tasks = g_array_new (FALSE, FALSE, sizeof (AfgDeviceTask));
  self->collectives = g_array_new (FALSE, FALSE, sizeof (AfgDeviceCollective));
  return self;
}

void
afg_device_tasks_free (AfgDeviceTasks *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->tracks);
  g_array_unref (self->launches);
  g_array_unref (self->tasks);
  g_array_unref (self->collectives);
  g_free (self->warning);
  g_free (self);
}

/* A DB has a few streams: they are compared in place before a key is
 * printed and hashed, which would be most of a TASK row's cost. */
#define FEW_TRACKS 16

/* @index maps "device/stream" to the track's index plus one. The key is
 * made on the stack: this runs once per TASK row. */
guint32
afg_device_tasks_track (AfgDeviceTasks *self, GHashTable *index, gint64 device_id, gint64 stream_id)
{
  AfgDeviceTrack track = { device_id, stream_id };
  char key[48];
  guint at;

  for (guint i = 0; i < MIN (self->tracks->len, FEW_TRACKS); i++)
    {
      const AfgDeviceTrack *t = &g_array_index (self->tracks, AfgDeviceTrack, i);

      if (t->device_id == device_id && t->stream_id == stream_id)
        return i;
    }
  g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, device_id, stream_id);
  at = GPOINTER_TO_UINT (g_hash_table_lookup (index, key));
  if (at != 0)
    return at - 1;
  g_array_append_val (self->tracks, track);
  g_hash_table_insert (index, g_strdup (key), GUINT_TO_POINTER (self->tracks->len));
  return self->tracks->len - 1;
}

static int
compare_tracks (gconstpointer a, gconstpointer b)
{
  const AfgDeviceTrack *x = a, *y = b;

  if (x->device_id != y->device_id)
    return x->device_id < y->device_id ? -1 : 1;
  return x->stream_id < y->stream_id ? -1 : x->stream_id > y->stream_id;
}

void
afg_device_tasks_seal (AfgDeviceTasks *self)
{
  guint n = self->tracks->len;
  g_autofree AfgDeviceTrack *old = g_memdup2 (self->tracks->data, n * sizeof (AfgDeviceTrack));
  g_autofree guint32 *renumber = g_new (guint32, MAX (n, 1));

  g_array_sort (self->tracks, compare_tracks);
  for (guint i = 0; i < n; i++)
    {
      const AfgDeviceTrack *at = bsearch (&old[i], self->tracks->data, n, sizeof (AfgDeviceTrack), compare_tracks);
      renumber[i] = (guint32) (at - (const AfgDeviceTrack *) self->tracks->data);
    }
  for (guint t = 0; t < self->tasks->len; t++)
    {
      AfgDeviceTask *task = &g_array_index (self->tasks, AfgDeviceTask, t);
      task->track = renumber[task->track];
    }
}
