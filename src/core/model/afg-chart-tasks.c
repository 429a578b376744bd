/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-bisect.h"
#include "afg-chart-tasks.h"
#include "afg-key-sort.h"
#include "afg-task-kinds.h"

/* Tasks are indexed in blocks of this many: a block keeps the largest
 * end of it and of every block before it in its lane, which only grows,
 * so the first that may overlap a range is a binary search away (an end
 * past a later start does not hide a long task). */
#define BLOCK 1024
#define LAUNCH_BITS 30
#define LAUNCH_NONE AFG_CHART_LAUNCH_NONE
#define WIDE G_MAXUINT32

G_STATIC_ASSERT (AFG_CHART_LAUNCH_NONE == (1u << LAUNCH_BITS) - 1);

/* A task in 16 bytes, in its lane's start order: the start as an offset
 * from its block's base, the duration (WIDE: the end is in the side
 * table), the name, and the kind (2 high bits) with the launching row as
 * its ordinal among every thread's events (LAUNCH_NONE: none, or past
 * 2^30 - 1 rows). */
typedef struct {
  guint32 start_offset;
  guint32 duration;
  guint32 name;
  guint32 kind_launch;
} PackedTask;

typedef struct {
  gint64  base;     /* the start of its first task; offsets fit 32 bits */
  gint64  max_end;  /* over it and the blocks before it in its lane */
  guint64 first;    /* its first task */
} TaskBlock;

typedef struct {
  AfgChartLane lane;
  guint64      first_block;
  guint64      n_blocks;
  guint64      n_tasks;
} Lane;

struct _AfgChartTasks {
  GArray     *lanes;      /* Lane */
  PackedTask *tasks;
  guint64     n_tasks;
  GArray     *blocks;     /* TaskBlock */
  GHashTable *wide_ends;  /* task index -> end (gint64 *) */
};

G_STATIC_ASSERT (sizeof (PackedTask) == 16);

/* A task on its way in: by lane, then start, then index. The start comes
 * first for afg_key_sort(). */
typedef struct {
  gint64  start;
  gint64  end;
  guint32 lane;
  guint32 index;  /* in tasks->tasks, or a collective's past them */
} Sorted;

static gint64
drawn_end (gint64 start, gint64 end)
{
  return MAX (end, start + 1);
}

static void
add_lanes (AfgChartTasks *self, const AfgDeviceTasks *tasks)
{
  for (guint i = 0; i < tasks->tracks->len; i++)
    {
      const AfgDeviceTrack *track = &g_array_index (tasks->tracks, AfgDeviceTrack, i);
      Lane lane = { { track->device_id, track->stream_id, FALSE }, 0, 0, 0 };

      g_array_append_val (self->lanes, lane);
    }
  if (tasks->collectives->len > 0)
    {
      Lane lane = { { AFG_DEVICE_UNKNOWN, AFG_DEVICE_UNKNOWN, TRUE }, 0, 0, 0 };

      g_array_append_val (self->lanes, lane);
    }
}

/* Each lane's first place in the sorted tasks (n_lanes + 1 of them). */
static guint64 *
count_lanes (const AfgDeviceTasks *tasks)
{
  guint n_lanes = tasks->tracks->len + 1;
  guint64 *first = g_new0 (guint64, n_lanes + 1);

  for (guint i = 0; i < tasks->tasks->len; i++)
    {
      const AfgDeviceTask *t = &g_array_index (tasks->tasks, AfgDeviceTask, i);

      if (!t->profiling)
        first[t->track + 1]++;
    }
  first[n_lanes] = tasks->collectives->len;
  for (guint l = 0; l < n_lanes; l++)
    first[l + 1] += first[l];
  return first;
}

/* Placed by lane in index order, then each lane sorted by start stably:
 * the order of (lane, start, index) without a compare per pair. */
static Sorted *
sort_tasks (const AfgDeviceTasks *tasks, guint64 *n)
{
  g_autofree guint64 *first = count_lanes (tasks);
  g_autofree guint64 *next = g_memdup2 (first, sizeof (guint64) * (tasks->tracks->len + 2));
  guint32 collectives_lane = tasks->tracks->len;
  Sorted *sorted;

  *n = first[collectives_lane + 1];
  sorted = g_new (Sorted, *n + 1);
  for (guint i = 0; i < tasks->tasks->len; i++)
    {
      const AfgDeviceTask *t = &g_array_index (tasks->tasks, AfgDeviceTask, i);

      if (!t->profiling)
        sorted[next[t->track]++] = (Sorted) { t->start_ns, t->end_ns, t->track, i };
    }
  for (guint i = 0; i < tasks->collectives->len; i++)
    {
      const AfgDeviceCollective *op = &g_array_index (tasks->collectives, AfgDeviceCollective, i);

      sorted[next[collectives_lane]++] = (Sorted) { op->start_ns, op->end_ns, collectives_lane,
                                                    tasks->tasks->len + i };
    }
  for (guint l = 0; l <= collectives_lane; l++)
    afg_key_sort (sorted + first[l], first[l + 1] - first[l], sizeof (Sorted));
  return sorted;
}

static guint32
launch_ordinal (const guint32 *ordinals, guint32 launch)
{
  return launch == AFG_DEVICE_NO_LAUNCH ? LAUNCH_NONE : ordinals[launch];
}

static PackedTask
pack (const AfgDeviceTasks *tasks, const guint32 *ordinals, const Sorted *s)
{
  PackedTask p = { 0, 0, AFG_DEVICE_NO_NAME, (guint32) AFG_TASK_KIND_COMMUNICATION << LAUNCH_BITS | LAUNCH_NONE };
  guint64 duration = (guint64) s->end - (guint64) s->start;

  p.duration = duration < WIDE ? (guint32) duration : WIDE;
  if (s->index < tasks->tasks->len)
    {
      const AfgDeviceTask *t = &g_array_index (tasks->tasks, AfgDeviceTask, s->index);

      p.name = t->name;
      p.kind_launch = (guint32) t->kind << LAUNCH_BITS | launch_ordinal (ordinals, t->launch);
    }
  else
    {
      const AfgDeviceCollective *op = &g_array_index (tasks->collectives, AfgDeviceCollective,
                                                      s->index - tasks->tasks->len);

      p.name = op->name;
      p.kind_launch = (guint32) AFG_TASK_KIND_COMMUNICATION << LAUNCH_BITS | launch_ordinal (ordinals, op->launch);
    }
  return p;
}

/* A new block at every BLOCK tasks of a lane, and where an offset would
 * not fit. */
static void
place_task (AfgChartTasks *self, Lane *lane, const Sorted *s, guint64 at)
{
  TaskBlock *block = lane->n_blocks > 0 ? &g_array_index (self->blocks, TaskBlock, self->blocks->len - 1) : NULL;
  gint64 end = drawn_end (s->start, s->end);

  if (block == NULL || at - block->first >= BLOCK || (guint64) s->start - (guint64) block->base > G_MAXUINT32)
    {
      TaskBlock next = { s->start, block != NULL ? MAX (block->max_end, end) : end, at };

      if (lane->n_blocks == 0)
        lane->first_block = self->blocks->len;
      g_array_append_val (self->blocks, next);
      lane->n_blocks++;
      block = &g_array_index (self->blocks, TaskBlock, self->blocks->len - 1);
    }
  block->max_end = MAX (block->max_end, end);
  self->tasks[at].start_offset = (guint32) (s->start - block->base);
  if (self->tasks[at].duration == WIDE)
    g_hash_table_insert (self->wide_ends, g_memdup2 (&at, sizeof at), g_memdup2 (&s->end, sizeof s->end));
  lane->n_tasks++;
}

/* A stream with only the profiler's markers, which are not drawn, gets
 * no lane: it would always be empty. */
static void
drop_empty_lanes (AfgChartTasks *self)
{
  guint kept = 0;

  for (guint i = 0; i < self->lanes->len; i++)
    if (g_array_index (self->lanes, Lane, i).n_tasks > 0)
      g_array_index (self->lanes, Lane, kept++) = g_array_index (self->lanes, Lane, i);
  g_array_set_size (self->lanes, kept);
}

static void
build_tasks (AfgChartTasks *self, const AfgDeviceTasks *tasks, const guint32 *ordinals)
{
  guint64 n;
  g_autofree Sorted *sorted = sort_tasks (tasks, &n);

  add_lanes (self, tasks);
  self->tasks = g_new (PackedTask, MAX (n, 1));
  self->n_tasks = n;
  for (guint64 i = 0; i < n; i++)
    {
      self->tasks[i] = pack (tasks, ordinals, &sorted[i]);
      place_task (self, &g_array_index (self->lanes, Lane, sorted[i].lane), &sorted[i], i);
    }
  drop_empty_lanes (self);
}

static void
decode_task (const AfgChartTasks *self, const TaskBlock *block, guint64 i, const guint64 *thread_first,
             guint n_threads, AfgChartTask *out)
{
  const PackedTask *p = &self->tasks[i];
  guint32 launch = p->kind_launch & LAUNCH_NONE;

  out->start = block->base + p->start_offset;
  if (p->duration == WIDE)
    out->end = *(const gint64 *) g_hash_table_lookup (self->wide_ends, &i);
  else
    out->end = out->start + p->duration;
  out->name = p->name;
  out->kind = p->kind_launch >> LAUNCH_BITS;
  out->launch_thread = AFG_CHART_NONE;
  out->launch_event = 0;
  if (launch != LAUNCH_NONE)
    {
      guint lo = 1, hi = n_threads;

      /* The thread whose ordinals hold it: the last first <= launch (the
       * first thread's first is 0). */
      AFG_BISECT (guint, lo, hi, mid, thread_first[mid] <= launch);
      out->launch_thread = lo - 1;
      out->launch_event = launch - thread_first[lo - 1];
    }
}

guint64
afg_chart_first_block (const gint64 *max_end, gsize stride, guint64 n, gint64 t0)
{
  guint64 lo = 0, hi = n;

  AFG_BISECT (guint64, lo, hi, mid, *(const gint64 *) ((const char *) max_end + mid * stride) <= t0);
  return lo;
}

void
afg_chart_tasks_visit (const AfgChartTasks *self, guint lane_index, gint64 t0, gint64 t1, const guint64 *thread_first,
                       guint n_threads, AfgChartTaskFunc func, gpointer user_data)
{
  const Lane *lane;
  const TaskBlock *blocks;
  guint64 b;

  g_return_if_fail (self != NULL && lane_index < self->lanes->len);
  lane = &g_array_index (self->lanes, Lane, lane_index);
  if (lane->n_blocks == 0)
    return;
  blocks = &g_array_index (self->blocks, TaskBlock, lane->first_block);
  b = afg_chart_first_block (&blocks[0].max_end, sizeof (TaskBlock), lane->n_blocks, t0);
  for (; b < lane->n_blocks && blocks[b].base < t1; b++)
    {
      guint64 last = b + 1 < lane->n_blocks ? blocks[b + 1].first : blocks[0].first + lane->n_tasks;

      for (guint64 i = blocks[b].first; i < last; i++)
        {
          AfgChartTask task;

          decode_task (self, &blocks[b], i, thread_first, n_threads, &task);
          if (task.start >= t1)
            return;
          if (drawn_end (task.start, task.end) > t0 && !func (&task, user_data))
            return;
        }
    }
}


AfgChartTasks *
afg_chart_tasks_new (const AfgDeviceTasks *tasks, const guint32 *ordinals)
{
  AfgChartTasks *self = g_new0 (AfgChartTasks, 1);

  g_return_val_if_fail (tasks != NULL, NULL);
  self->lanes = g_array_new (FALSE, FALSE, sizeof (Lane));
  self->blocks = g_array_new (FALSE, FALSE, sizeof (TaskBlock));
  self->wide_ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  build_tasks (self, tasks, ordinals);
  return self;
}

void
afg_chart_tasks_free (AfgChartTasks *self)
{
  if (self == NULL)
    return;
  g_free (self->tasks);
  g_array_unref (self->lanes);
  g_array_unref (self->blocks);
  g_hash_table_unref (self->wide_ends);
  g_free (self);
}

guint
afg_chart_tasks_get_n_lanes (const AfgChartTasks *self)
{
  return self->lanes->len;
}

const AfgChartLane *
afg_chart_tasks_get_lane (const AfgChartTasks *self, guint lane)
{
  g_return_val_if_fail (lane < self->lanes->len, NULL);
  return &g_array_index (self->lanes, Lane, lane).lane;
}

guint64
afg_chart_tasks_get_n_tasks (const AfgChartTasks *self)
{
  return self->n_tasks;
}

guint64
afg_chart_tasks_get_bytes (const AfgChartTasks *self)
{
  return self->n_tasks * sizeof (PackedTask) + self->blocks->len * sizeof (TaskBlock)
         + g_hash_table_size (self->wide_ends) * 2 * sizeof (gint64);
}
