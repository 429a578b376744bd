/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-frame-reducer.h"

typedef struct {
  const char *name;  /* in the reducer's names: one pointer per name */
  gint64      ns;
} Frame;

struct _AfgFrameReducer {
  GStringChunk *names;
  GHashTable   *taken;  /* AfgRankSummary * -> GArray of Frame */
};

typedef struct {
  gint64 lo;
  gint64 hi;
  guint  count;  /* ranks read that have the frame */
} Range;

AfgFrameReducer *
afg_frame_reducer_new (void)
{
  AfgFrameReducer *self = g_new0 (AfgFrameReducer, 1);

  self->names = g_string_chunk_new (1 << 16);
  self->taken = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  return self;
}

void
afg_frame_reducer_free (AfgFrameReducer *self)
{
  if (self == NULL)
    return;
  g_string_chunk_free (self->names);
  g_hash_table_unref (self->taken);
  g_free (self);
}

void
afg_frame_reducer_add (AfgFrameReducer *self, AfgRankSummary *rank, const char *name, gint64 ns)
{
  GArray *frames = g_hash_table_lookup (self->taken, rank);
  Frame frame = { g_string_chunk_insert_const (self->names, name), ns };

  if (frames == NULL)
    {
      frames = g_array_new (FALSE, FALSE, sizeof (Frame));
      g_hash_table_insert (self->taken, rank, frames);
    }
  g_array_append_val (frames, frame);
}

void
afg_frame_reducer_forget (AfgFrameReducer *self, AfgRankSummary *rank)
{
  g_hash_table_remove (self->taken, rank);
}

/* Each name's range over the ranks read; a failed rank's names count
 * with no value, as afg_job_figures_new() counts them. */
static GHashTable *
ranges (AfgFrameReducer *self, AfgRankSummary * const *ranks, guint n)
{
  GHashTable *by_name = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint i = 0; i < n; i++)
    {
      GArray *frames = g_hash_table_lookup (self->taken, ranks[i]);

      for (guint f = 0; frames != NULL && f < frames->len; f++)
        {
          const Frame *frame = &g_array_index (frames, Frame, f);
          Range *range = g_hash_table_lookup (by_name, frame->name);

          if (range == NULL)
            {
              range = g_new (Range, 1);
              *range = (Range) { G_MAXINT64, G_MININT64, 0 };
              g_hash_table_insert (by_name, (gpointer) frame->name, range);
            }
          if (ranks[i]->error != NULL)
            continue;
          range->lo = MIN (range->lo, frame->ns);
          range->hi = MAX (range->hi, frame->ns);
          range->count++;
        }
    }
  return by_name;
}

/* max - min over the ranks read, 0 where a rank lacks the frame. */
static gint64
spread_of (const Range *range, guint n_read)
{
  gint64 lo = range->lo, hi = range->hi;

  if (range->count < n_read)
    {
      lo = MIN (lo, 0);
      hi = MAX (hi, 0);
    }
  return (gint64) ((guint64) hi - (guint64) lo);
}

static GHashTable *
pick (AfgFrameReducer *self, AfgRankSummary * const *ranks, guint n)
{
  g_autoptr(GHashTable) by_name = ranges (self, ranks, n);
  g_autoptr(GArray) spreads = g_array_new (FALSE, FALSE, sizeof (AfgFrameSpread));
  GHashTable *kept = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint n_read = 0;

  for (guint i = 0; i < n; i++)
    n_read += ranks[i]->error == NULL;
  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      AfgFrameSpread spread = { key, spread_of (value, n_read) };

      g_array_append_val (spreads, spread);
    }
  afg_frame_spreads_sort (spreads);
  for (guint i = 0; i < MIN (spreads->len, AFG_RANK_MAX_VARYING_FRAMES); i++)
    g_hash_table_add (kept, (gpointer) g_array_index (spreads, AfgFrameSpread, i).name);
  return kept;
}

void
afg_frame_reducer_finish (AfgFrameReducer *self, AfgRankSummary * const *ranks, guint n)
{
  g_autoptr(GHashTable) kept = pick (self, ranks, n);

  for (guint i = 0; i < n; i++)
    {
      GArray *frames = g_hash_table_lookup (self->taken, ranks[i]);

      for (guint f = 0; frames != NULL && f < frames->len; f++)
        {
          const Frame *frame = &g_array_index (frames, Frame, f);

          if (g_hash_table_contains (kept, frame->name))
            g_hash_table_insert (ranks[i]->frames, g_strdup (frame->name), g_memdup2 (&frame->ns, sizeof frame->ns));
        }
      g_hash_table_remove (self->taken, ranks[i]);
    }
}
