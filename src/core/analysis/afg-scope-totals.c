/* SPDX-License-Identifier: MIT */
/* A rank's step totals without a tree per step. The builder's
 * root total is the sum of its threads' top-level rows cut to the scope,
 * its NPU total the device time of the rows in the walk that start in the
 * scope. Whether a row is top-level does not depend on the scope: a row
 * that contains another overlaps every range the other overlaps, so the
 * rows a scope leaves out are never an in-scope row's ancestors, and one
 * walk of the whole store (every row of positive length, each in the
 * walk of some scope) decides it for all the scopes. */
#include "config.h"

#include <string.h>

#include "afg-bisect.h"
#include "afg-event-store.h"
#include "afg-math.h"
#include "afg-nesting.h"
#include "afg-npu.h"
#include "afg-scope-totals.h"
#include "afg-tree.h"

/* The scopes by start, with the latest end so far: the scopes a row
 * overlaps are found without trying them all (a DB may have thousands). */
typedef struct {
  const AfgScope *scopes;
  guint           n;
  guint          *order;
  gint64         *max_end;   /* the latest end of order[0..k] */
} ScopeIndex;

static int
compare_starts (gconstpointer a, gconstpointer b, gpointer data)
{
  const AfgScope *scopes = data;
  gint64 x = scopes[*(const guint *) a].start_ns, y = scopes[*(const guint *) b].start_ns;

  return (x > y) - (x < y);
}

static void
scope_index_init (ScopeIndex *self, const AfgScope *scopes, guint n)
{
  *self = (ScopeIndex) { scopes, n, g_new (guint, MAX (n, 1)), g_new (gint64, MAX (n, 1)) };
  for (guint k = 0; k < n; k++)
    self->order[k] = k;
  g_qsort_with_data (self->order, n, sizeof (guint), compare_starts, (gpointer) scopes);
  for (guint k = 0; k < n; k++)
    self->max_end[k] = MAX (k > 0 ? self->max_end[k - 1] : G_MININT64, scopes[self->order[k]].end_ns);
}

static void
scope_index_clear (ScopeIndex *self)
{
  g_free (self->order);
  g_free (self->max_end);
}

/* How many scopes start before @end_ns. */
static guint
starting_before (const ScopeIndex *self, gint64 end_ns)
{
  guint lo = 0, hi = self->n;

  AFG_BISECT (guint, lo, hi, mid, self->scopes[self->order[mid]].start_ns < end_ns);
  return lo;
}

/* A row counts in each scope it overlaps by 1 ns or more, as in the
 * builder: its cut when it is top-level, its device time when it starts
 * inside. */
static void
add_row (const ScopeIndex *index, const AfgEvent *ev, gboolean top_level, const AfgNpuEntry *npu,
         gint64 *host_ns, gint64 *npu_ns)
{
  for (guint k = starting_before (index, ev->end); k-- > 0 && index->max_end[k] > ev->start;)
    {
      guint i = index->order[k];
      const AfgScope *scope = &index->scopes[i];
      gint64 ns = afg_scope_overlap_ns (scope, ev->start, ev->end);

      if (ns <= 0)
        continue;
      if (top_level)
        host_ns[i] = afg_sat_add (host_ns[i], ns);
      if (npu != NULL && afg_scope_contains_start (scope, ev->start))
        npu_ns[i] = afg_sat_add (npu_ns[i], npu->ns);
    }
}

/* The builder's nesting, without nodes: a row is top-level when it fits
 * in no open row. */
static void
walk_thread (const ScopeIndex *index, const AfgEventThread *thread, const AfgNpuEntry *entries,
             guint n_entries, gint64 *host_ns, gint64 *npu_ns)
{
  g_autofree AfgNesting *nesting = g_new (AfgNesting, 1);
  AfgEventCursor cursor;
  AfgEvent ev;
  guint next_npu = 0;

  afg_nesting_start (nesting, AFG_NODE_NONE);
  afg_event_cursor_init (&cursor, thread);
  for (guint64 e = 0; afg_event_cursor_next (&cursor, &ev); e++)
    {
      const AfgNpuEntry *npu = next_npu < n_entries && entries[next_npu].event == e ? &entries[next_npu++] : NULL;
      gboolean top_level;

      if (ev.end <= ev.start)
        continue;  /* overlaps no range */
      afg_nesting_close (nesting, ev.start, ev.end);
      top_level = nesting->depth == 0;
      if (!afg_nesting_is_full (nesting))
        afg_nesting_open (nesting, ev.end, AFG_NODE_NONE);
      if (top_level || npu != NULL)
        add_row (index, &ev, top_level, npu, host_ns, npu_ns);
    }
}

void
afg_scope_totals_compute (AfgDocument *document, const AfgScope *scopes, guint n,
                          gint64 *host_ns, gint64 *npu_ns)
{
  const AfgEventStore *events = afg_document_get_events (document);
  ScopeIndex index;

  g_return_if_fail (document != NULL && (n == 0 || (scopes != NULL && host_ns != NULL && npu_ns != NULL)));

  if (n == 0)
    return;
  memset (host_ns, 0, sizeof (gint64) * n);
  memset (npu_ns, 0, sizeof (gint64) * n);
  scope_index_init (&index, scopes, n);
  for (guint t = 0; t < afg_event_store_get_n_threads (events); t++)
    {
      guint n_entries;
      const AfgNpuEntry *entries = afg_document_get_npu_entries (document, t, &n_entries);

      walk_thread (&index, afg_event_store_get_thread (events, t), entries, n_entries, host_ns, npu_ns);
    }
  scope_index_clear (&index);
}
