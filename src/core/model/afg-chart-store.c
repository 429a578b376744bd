/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-bisect.h"
#include "afg-chart-store.h"
#include "afg-int-map.h"
#include "afg-huge.h"
#include "afg-key-sort.h"
#include "afg-tree.h"

/* Rows are indexed in blocks of this many, as tasks are
 * (afg-chart-tasks.c): a block keeps the largest end of it and of every
 * block before it at its depth. */
#define BLOCK 64
#define LAUNCH_NONE AFG_CHART_LAUNCH_NONE

typedef struct {
  AfgChartRow *rows;       /* event order */
  guint64      n_rows;
  guint        n_depths;
  guint64     *depth_first; /* n_depths + 1: each depth's rows in order */
  guint32     *order;       /* event indices, by depth, then start */
  guint64     *block_first; /* n_depths + 1: each depth's blocks in max_end */
  gint64      *max_end;
} Thread;

struct _AfgChartStore {
  AfgDocument         *document;
  const AfgChartTasks *tasks;      /* the document's, or own_tasks; NULL: no lanes */
  AfgChartTasks       *own_tasks;
  Thread      *threads;
  guint        n_threads;
  guint64     *thread_first;  /* n_threads + 1: ordinals of each thread's events */
};

/* ---- host rows ---- */

typedef struct {
  gint64  end;
  guint32 event;
} Open;

/* The tree builder's nesting (afg-tree-builder.c, add_event): a row is
 * popped out of each open row that ends before it; past the depth limit
 * a row is cut. */
static guint
nest_rows (Thread *t, const AfgEventThread *events)
{
  g_autofree Open *stack = g_new (Open, AFG_MAX_DEPTH + 1);
  AfgEventCursor cursor;
  AfgEvent ev;
  guint sp = 0, n_depths = 0;
  guint64 i = 0;

  stack[0] = (Open) { G_MAXINT64, AFG_CHART_NONE };
  afg_event_cursor_init (&cursor, events);
  for (; afg_event_cursor_next (&cursor, &ev); i++)
    {
      AfgChartRow *row = &t->rows[i];

      while (sp > 0 && stack[sp].end < ev.end)
        sp--;
      *row = (AfgChartRow) { ev.start, ev.end, stack[sp].event, sp };
      if (sp >= AFG_MAX_DEPTH)
        {
          row->depth = AFG_CHART_NONE;
          continue;
        }
      stack[++sp] = (Open) { ev.end, (guint32) i };
      n_depths = MAX (n_depths, sp);
    }
  return n_depths;
}

static void
index_depths (Thread *t)
{
  g_autofree guint64 *next = g_new0 (guint64, t->n_depths + 1);

  t->depth_first = g_new0 (guint64, t->n_depths + 1);
  for (guint64 i = 0; i < t->n_rows; i++)
    if (t->rows[i].depth != AFG_CHART_NONE)
      t->depth_first[t->rows[i].depth + 1]++;
  for (guint d = 0; d < t->n_depths; d++)
    t->depth_first[d + 1] += t->depth_first[d];
  memcpy (next, t->depth_first, sizeof (guint64) * (t->n_depths + 1));
  t->order = afg_huge_alloc (sizeof (guint32) * MAX (t->depth_first[t->n_depths], 1));
  for (guint64 i = 0; i < t->n_rows; i++)
    if (t->rows[i].depth != AFG_CHART_NONE)
      t->order[next[t->rows[i].depth]++] = (guint32) i;
}

static void
index_blocks (Thread *t)
{
  guint64 n_blocks = 0;

  t->block_first = g_new0 (guint64, t->n_depths + 1);
  for (guint d = 0; d < t->n_depths; d++)
    {
      n_blocks += (t->depth_first[d + 1] - t->depth_first[d] + BLOCK - 1) / BLOCK;
      t->block_first[d + 1] = n_blocks;
    }
  t->max_end = afg_huge_alloc (sizeof (gint64) * MAX (n_blocks, 1));
  for (guint d = 0; d < t->n_depths; d++)
    {
      gint64 max_end = G_MININT64;

      for (guint64 k = t->depth_first[d]; k < t->depth_first[d + 1]; k++)
        {
          guint64 b = t->block_first[d] + (k - t->depth_first[d]) / BLOCK;

          max_end = MAX (max_end, t->rows[t->order[k]].end);
          t->max_end[b] = max_end;
        }
    }
}

static void
build_thread (Thread *t, const AfgEventThread *events)
{
  t->n_rows = events->n_events;
  /* In huge pages: the chart opens on this store, and on these VMs the
   * 4 kB faults of fresh memory cost more than building it. */
  t->rows = afg_huge_alloc (sizeof (AfgChartRow) * MAX (t->n_rows, 1));
  t->n_depths = nest_rows (t, events);
  index_depths (t);
  index_blocks (t);
}

static void
build_threads (AfgChartStore *self)
{
  const AfgEventStore *store = afg_document_get_events (self->document);

  self->n_threads = afg_event_store_get_n_threads (store);
  self->threads = g_new0 (Thread, MAX (self->n_threads, 1));
  self->thread_first = g_new0 (guint64, self->n_threads + 1);
  for (guint i = 0; i < self->n_threads; i++)
    {
      build_thread (&self->threads[i], afg_event_store_get_thread (store, i));
      self->thread_first[i + 1] = self->thread_first[i] + self->threads[i].n_rows;
    }
}

/* ---- launching rows ---- */

static gboolean
find_thread (const AfgChartStore *self, gint64 global_tid, guint *index)
{
  const AfgEventStore *store = afg_document_get_events (self->document);
  guint lo = 0, hi = self->n_threads;

  AFG_BISECT (guint, lo, hi, mid, afg_event_store_get_thread (store, mid)->global_tid < global_tid);
  if (lo == self->n_threads || afg_event_store_get_thread (store, lo)->global_tid != global_tid)
    return FALSE;
  *index = lo;
  return TRUE;
}

/* A launching row by its start, for one walk over each thread's rows. */
typedef struct {
  gint64  start;
  guint32 launch;
  guint32 thread;
} LaunchKey;

/* The first row of @t from @i on that matches @l, its ordinal among all
 * events; LAUNCH_NONE. */
static guint32
match_launch (const AfgChartStore *self, guint thread, guint64 i, const AfgDeviceLaunch *l)
{
  const Thread *t = &self->threads[thread];

  for (; i < t->n_rows && t->rows[i].start == l->start_ns; i++)
    if (t->rows[i].end == l->end_ns)
      {
        guint64 ordinal = self->thread_first[thread] + i;
        return ordinal < LAUNCH_NONE ? (guint32) ordinal : LAUNCH_NONE;
      }
  return LAUNCH_NONE;
}

/* Each launching row's ordinal among all events (LAUNCH_NONE: not
 * found), by launch. The launches are taken in start order, so that each
 * thread's rows (in start order) are walked once rather than searched
 * once per launch. */
static guint32 *
launch_ordinals (const AfgChartStore *self, const AfgDeviceTasks *tasks)
{
  guint n = tasks->launches->len, n_keys = 0;
  guint32 *ordinals = g_new (guint32, MAX (n, 1));
  g_autofree LaunchKey *keys = g_new (LaunchKey, MAX (n, 1));
  g_autofree guint64 *at = g_new0 (guint64, MAX (self->n_threads, 1));

  for (guint i = 0; i < n; i++)
    {
      const AfgDeviceLaunch *l = &g_array_index (tasks->launches, AfgDeviceLaunch, i);
      guint thread;

      ordinals[i] = LAUNCH_NONE;
      if (find_thread (self, l->global_tid, &thread))
        keys[n_keys++] = (LaunchKey) { l->start_ns, i, thread };
    }
  afg_key_sort (keys, n_keys, sizeof (LaunchKey));
  for (guint k = 0; k < n_keys; k++)
    {
      const Thread *t = &self->threads[keys[k].thread];
      guint64 i = at[keys[k].thread];

      while (i < t->n_rows && t->rows[i].start < keys[k].start)
        i++;
      at[keys[k].thread] = i;
      ordinals[keys[k].launch] = match_launch (self, keys[k].thread, i,
                                               &g_array_index (tasks->launches, AfgDeviceLaunch, keys[k].launch));
    }
  return ordinals;
}

/* ---- tasks ---- */

typedef struct {
  const AfgChartStore *self;
  AfgChartTaskFunc     func;
  gpointer             user_data;
} TaskVisit;

/* A row cut at the depth limit is not drawn: its tasks are the frame's
 * at the cut, as the flame graph gives them. */
static gboolean
visit_task (const AfgChartTask *task, gpointer data)
{
  TaskVisit *v = data;
  AfgChartTask shown = *task;

  if (shown.launch_thread != AFG_CHART_NONE)
    {
      const AfgChartRow *rows = v->self->threads[shown.launch_thread].rows;

      while (rows[shown.launch_event].depth == AFG_CHART_NONE)
        shown.launch_event = rows[shown.launch_event].parent;
    }
  return v->func (&shown, v->user_data);
}

void
afg_chart_store_visit_tasks (const AfgChartStore *self, guint lane, gint64 t0, gint64 t1, AfgChartTaskFunc func,
                             gpointer user_data)
{
  TaskVisit visit = { self, func, user_data };

  g_return_if_fail (self != NULL && lane < afg_chart_store_get_n_lanes (self));
  afg_chart_tasks_visit (self->tasks, lane, t0, t1, self->thread_first, self->n_threads, visit_task, &visit);
}

void
afg_chart_store_visit_task_boxes (const AfgChartStore *self, guint lane, gint64 t0, gint64 t1, AfgChartTaskFunc func,
                                  gpointer user_data)
{
  g_return_if_fail (self != NULL && lane < afg_chart_store_get_n_lanes (self));
  afg_chart_tasks_visit (self->tasks, lane, t0, t1, self->thread_first, self->n_threads, func, user_data);
}

void
afg_chart_store_visit_rows (const AfgChartStore *self, guint thread, guint depth, gint64 t0, gint64 t1,
                            AfgChartRowFunc func, gpointer user_data)
{
  const Thread *t;
  guint64 b, n_blocks;

  g_return_if_fail (self != NULL && thread < self->n_threads);
  t = &self->threads[thread];
  if (depth >= t->n_depths)
    return;
  n_blocks = t->block_first[depth + 1] - t->block_first[depth];
  b = afg_chart_first_block (t->max_end + t->block_first[depth], sizeof (gint64), n_blocks, t0);
  for (guint64 k = t->depth_first[depth] + b * BLOCK; k < t->depth_first[depth + 1]; k++)
    {
      const AfgChartRow *row = &t->rows[t->order[k]];

      if (row->start >= t1)
        return;
      if (row->end > t0 && !func (t->order[k], row, user_data))
        return;
    }
}

/* ---- under the pointer ---- */

typedef struct {
  gint64       at;
  gboolean     found;
  gboolean     holds;   /* the one found holds the instant */
  guint64      event;
  AfgChartTask task;
} PointAt;

static gboolean
is_drawn_over (PointAt *p, gint64 start, gint64 end)
{
  gboolean holds = start <= p->at && p->at < end;

  if (!holds && p->holds)
    return FALSE;
  p->found = TRUE;
  p->holds = holds;
  return TRUE;
}

static gboolean
point_row (guint64 event, const AfgChartRow *row, gpointer data)
{
  PointAt *p = data;

  if (is_drawn_over (p, row->start, row->end))
    p->event = event;
  return TRUE;
}

static gboolean
point_task (const AfgChartTask *task, gpointer data)
{
  PointAt *p = data;

  if (is_drawn_over (p, task->start, task->end))
    p->task = *task;
  return TRUE;
}

gboolean
afg_chart_store_row_at (const AfgChartStore *self, guint thread, guint depth, gint64 at, gint64 slack,
                        guint64 *event)
{
  PointAt p = { at };

  g_return_val_if_fail (event != NULL, FALSE);
  afg_chart_store_visit_rows (self, thread, depth, at - slack, at + slack + 1, point_row, &p);
  if (p.found)
    *event = p.event;
  return p.found;
}

gboolean
afg_chart_store_task_at (const AfgChartStore *self, guint lane, gint64 at, gint64 slack, AfgChartTask *task)
{
  PointAt p = { at };

  g_return_val_if_fail (task != NULL, FALSE);
  afg_chart_store_visit_tasks (self, lane, at - slack, at + slack + 1, point_task, &p);
  if (p.found)
    *task = p.task;
  return p.found;
}

/* ---- paths ---- */

static guint32
row_name (const AfgChartStore *self, guint thread, guint64 event, gboolean merge)
{
  const AfgEventThread *t = afg_event_store_get_thread (afg_document_get_events (self->document), thread);
  guint32 name = t->events[event].name;

  return merge ? afg_document_get_merged_name (self->document, name) : name;
}

guint
afg_chart_store_get_path (const AfgChartStore *self, guint thread, guint64 event, gboolean merge, GArray *names)
{
  const Thread *t;
  guint n = 0;

  g_return_val_if_fail (self != NULL && thread < self->n_threads && names != NULL, 0);
  t = &self->threads[thread];
  g_return_val_if_fail (event < t->n_rows, 0);
  g_array_set_size (names, 0);
  for (guint64 e = event; e != AFG_CHART_NONE; e = t->rows[e].parent, n++)
    {
      guint32 name = row_name (self, thread, e, merge);

      g_array_prepend_val (names, name);
    }
  return n;
}

static gboolean
path_is (const AfgChartStore *self, guint thread, guint64 event, const guint32 *names, guint n, gboolean merge)
{
  const Thread *t = &self->threads[thread];

  for (guint k = n; k-- > 0; event = t->rows[event].parent)
    if (event == AFG_CHART_NONE || row_name (self, thread, event, merge) != names[k])
      return FALSE;
  return event == AFG_CHART_NONE;
}

GArray *
afg_chart_store_find_rows (const AfgChartStore *self, guint thread, const guint32 *names, guint n_names,
                           gboolean merge, gint64 t0, gint64 t1)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint64));
  const Thread *t;

  g_return_val_if_fail (self != NULL && thread < self->n_threads, found);
  t = &self->threads[thread];
  if (n_names == 0 || n_names > t->n_depths)
    return found;
  for (guint64 k = t->depth_first[n_names - 1]; k < t->depth_first[n_names]; k++)
    {
      guint64 event = t->order[k];
      const AfgChartRow *row = &t->rows[event];

      if (row->end > t0 && row->start < t1 && path_is (self, thread, event, names, n_names, merge))
        g_array_append_val (found, event);
    }
  return found;
}

/* Rows share paths: each distinct path gets an id, its parent's id and
 * its last name, so that @wanted is asked once per path. Parents come
 * first in depth order, so a row's parent already has its id. */
typedef struct {
  GArray   *parent;   /* guint32 per path id */
  GArray   *name;     /* guint32 per path id */
  GArray   *verdict;  /* gboolean per path id */
  GArray   *names;    /* guint32: the path being judged */
  AfgIntMap ids;      /* parent id + 1 << 32 | name -> id */
} PathIds;

static gboolean
judge_path (const PathIds *p, guint32 id, AfgChartPathFunc wanted, gpointer data)
{
  guint32 *names;
  guint n;

  g_array_set_size (p->names, 0);
  for (guint32 k = id; k != G_MAXUINT32; k = g_array_index (p->parent, guint32, k))
    g_array_append_val (p->names, g_array_index (p->name, guint32, k));
  names = (guint32 *) p->names->data;
  n = p->names->len;
  for (guint i = 0; i < n / 2; i++)
    {
      guint32 swap = names[i];

      names[i] = names[n - 1 - i];
      names[n - 1 - i] = swap;
    }
  return wanted (names, n, data);
}

static guint32
path_id (PathIds *p, guint32 parent, guint32 name, AfgChartPathFunc wanted, gpointer data)
{
  guint32 id = p->parent->len;
  gboolean verdict;

  id = afg_int_map_insert (&p->ids, (guint64) (parent + 1) << 32 | name, id);
  if (id < p->parent->len)
    return id;
  g_array_append_val (p->parent, parent);
  g_array_append_val (p->name, name);
  verdict = judge_path (p, id, wanted, data);
  g_array_append_val (p->verdict, verdict);
  return id;
}

static int
compare_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const AfgChartRow *rows = data;
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  if (rows[x].start != rows[y].start)
    return rows[x].start < rows[y].start ? -1 : 1;
  return x < y ? -1 : x > y;
}

GArray *
afg_chart_store_find_rows_by_path (const AfgChartStore *self, guint thread, gboolean merge, gint64 t0, gint64 t1,
                                   AfgChartPathFunc wanted, gpointer user_data, GCancellable *cancellable)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree guint32 *ids = NULL;
  PathIds p;
  const Thread *t;

  g_return_val_if_fail (self != NULL && thread < self->n_threads && wanted != NULL, found);
  t = &self->threads[thread];
  ids = g_new (guint32, MAX (t->n_rows, 1));
  p.parent = g_array_new (FALSE, FALSE, sizeof (guint32));
  p.name = g_array_new (FALSE, FALSE, sizeof (guint32));
  p.verdict = g_array_new (FALSE, FALSE, sizeof (gboolean));
  p.names = g_array_new (FALSE, FALSE, sizeof (guint32));
  afg_int_map_init (&p.ids, 64);
  for (guint64 k = 0; k < t->depth_first[t->n_depths]; k++)
    {
      guint64 event = t->order[k];
      const AfgChartRow *row = &t->rows[event];
      guint32 parent = row->parent == AFG_CHART_NONE ? G_MAXUINT32 : ids[row->parent];

      if ((k & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;

      ids[event] = path_id (&p, parent, row_name (self, thread, event, merge), wanted, user_data);
      if (row->end > t0 && row->start < t1 && g_array_index (p.verdict, gboolean, ids[event]))
        g_array_append_val (found, event);
    }
  g_array_sort_with_data (found, compare_start, t->rows);
  afg_int_map_clear (&p.ids);
  g_array_unref (p.parent);
  g_array_unref (p.name);
  g_array_unref (p.verdict);
  g_array_unref (p.names);
  return found;
}

/* ---- the store ---- */

AfgChartStore *
afg_chart_store_new_rows (AfgDocument *document)
{
  AfgChartStore *self = g_atomic_rc_box_new0 (AfgChartStore);

  g_return_val_if_fail (document != NULL, NULL);
  self->document = afg_document_ref (document);
  build_threads (self);
  return self;
}

void
afg_chart_store_add_tasks (AfgChartStore *self, const AfgDeviceTasks *tasks)
{
  g_autofree guint32 *ordinals = NULL;

  g_return_if_fail (self != NULL && tasks != NULL && self->tasks == NULL);

  ordinals = launch_ordinals (self, tasks);
  self->own_tasks = afg_chart_tasks_new (tasks, ordinals);
  self->tasks = self->own_tasks;
}

AfgChartStore *
afg_chart_store_new_kept (AfgDocument *document)
{
  AfgChartStore *self = afg_chart_store_new_rows (document);

  if (self != NULL)
    self->tasks = afg_document_get_chart_tasks (document);
  return self;
}

AfgChartStore *
afg_chart_store_new (AfgDocument *document, const AfgDeviceTasks *tasks)
{
  AfgChartStore *self = afg_chart_store_new_rows (document);

  if (self != NULL && tasks != NULL)
    afg_chart_store_add_tasks (self, tasks);
  return self;
}

static void
store_clear (gpointer data)
{
  AfgChartStore *self = data;

  for (guint i = 0; i < self->n_threads; i++)
    {
      Thread *t = &self->threads[i];

      g_free (t->rows);
      g_free (t->depth_first);
      g_free (t->order);
      g_free (t->block_first);
      g_free (t->max_end);
    }
  g_free (self->threads);
  g_free (self->thread_first);
  afg_chart_tasks_free (self->own_tasks);
  afg_document_unref (self->document);
}

AfgChartStore *
afg_chart_store_ref (AfgChartStore *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_chart_store_unref (AfgChartStore *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, store_clear);
}

AfgDocument *
afg_chart_store_get_document (const AfgChartStore *self)
{
  return self->document;
}

guint
afg_chart_store_get_n_lanes (const AfgChartStore *self)
{
  return self->tasks != NULL ? afg_chart_tasks_get_n_lanes (self->tasks) : 0;
}

const AfgChartLane *
afg_chart_store_get_lane (const AfgChartStore *self, guint lane)
{
  g_return_val_if_fail (lane < afg_chart_store_get_n_lanes (self), NULL);
  return afg_chart_tasks_get_lane (self->tasks, lane);
}

guint64
afg_chart_store_get_n_tasks (const AfgChartStore *self)
{
  return self->tasks != NULL ? afg_chart_tasks_get_n_tasks (self->tasks) : 0;
}

guint
afg_chart_store_get_n_threads (const AfgChartStore *self)
{
  return self->n_threads;
}

guint
afg_chart_store_get_n_depths (const AfgChartStore *self, guint thread)
{
  g_return_val_if_fail (thread < self->n_threads, 0);
  return self->threads[thread].n_depths;
}

const AfgChartRow *
afg_chart_store_get_rows (const AfgChartStore *self, guint thread, guint64 *n_rows)
{
  g_return_val_if_fail (thread < self->n_threads, NULL);
  *n_rows = self->threads[thread].n_rows;
  return self->threads[thread].rows;
}

gboolean
afg_chart_store_get_row_span (const AfgChartStore *self, gint64 *start, gint64 *end)
{
  gboolean any = FALSE;

  for (guint t = 0; t < self->n_threads; t++)
    for (guint64 r = 0; r < self->threads[t].n_rows; r++)
      {
        const AfgChartRow *row = &self->threads[t].rows[r];

        if (row->end <= row->start)
          continue;
        *start = any ? MIN (*start, row->start) : row->start;
        *end = any ? MAX (*end, row->end) : row->end;
        any = TRUE;
      }
  return any;
}

guint64
afg_chart_store_get_task_bytes (const AfgChartStore *self)
{
  return self->tasks != NULL ? afg_chart_tasks_get_bytes (self->tasks) : 0;
}

guint64
afg_chart_store_get_row_bytes (const AfgChartStore *self)
{
  guint64 bytes = (self->n_threads + 1) * sizeof (guint64);

  for (guint i = 0; i < self->n_threads; i++)
    {
      const Thread *t = &self->threads[i];

      bytes += t->n_rows * (sizeof (AfgChartRow) + sizeof (guint32))
               + (t->n_depths + 1) * 2 * sizeof (guint64) + t->block_first[t->n_depths] * sizeof (gint64);
    }
  return bytes;
}
