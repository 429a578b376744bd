/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-durations"

#include "config.h"

#include <string.h>

#include "afg-call-durations.h"
#include "afg-call-table.h"
#include "afg-event-store.h"
#include "afg-int-map.h"
#include "afg-nesting.h"
#include "afg-tree-builder.h"
#include "afg-tree-private.h"
#include "afg-tree-transform.h"

#define CANCEL_CHECK_EVENTS 65536

typedef struct {
  AfgTree      *tree;
  AfgDocument  *document;
  gboolean      merge;
  AfgCallFunc   func;
  gpointer      data;
  AfgIntMap     children;   /* parent << 32 | name -> node */
  AfgNesting    nesting;
} Walk;

/* Every frame by parent and name: one probe per row, where a binary
 * search among the siblings would compare their names. */
static void
index_children (Walk *w)
{
  const AfgNode *nodes = afg_tree_get_nodes (w->tree);

  afg_int_map_init (&w->children, afg_tree_get_n_nodes (w->tree));
  for (guint32 i = 1; i < afg_tree_get_n_nodes (w->tree); i++)
    afg_int_map_insert (&w->children, (guint64) nodes[i].parent << 32 | nodes[i].name, i);
}

static guint32
child_named (Walk *w, guint32 parent, guint32 name)
{
  guint32 child;

  if (!afg_int_map_lookup (&w->children, (guint64) parent << 32 | name, &child))
    return AFG_NODE_NONE;
  return child;
}

/* The builder's nesting: a row goes under the innermost open row that
 * outlasts it; rows past the depth limit are no call of any frame. */
static void
walk_event (Walk *w, AfgEvent *ev)
{
  gint64 ns = afg_scope_overlap_ns (afg_tree_get_scope (w->tree), ev->start, ev->end);
  guint32 child;

  if (ns <= 0)
    return;
  if (w->merge)
    ev->name = afg_document_get_merged_name (w->document, ev->name);
  afg_nesting_close (&w->nesting, ev->start, ev->end);
  if (afg_nesting_is_full (&w->nesting))
    return;
  child = child_named (w, afg_nesting_top (&w->nesting)->node, ev->name);
  g_return_if_fail (child != AFG_NODE_NONE);
  afg_nesting_open (&w->nesting, ev->end, child);
  w->func (child, ns, w->nesting.depth, w->data);
}

static gboolean
walk_thread (Walk *w, const AfgEventThread *t, guint32 thread_node, GCancellable *cancellable)
{
  AfgEventCursor cursor;
  AfgEvent ev;
  guint64 n = 0;

  afg_nesting_start (&w->nesting, thread_node);
  afg_event_cursor_init (&cursor, t);
  while (afg_event_cursor_next (&cursor, &ev))
    {
      if (++n % CANCEL_CHECK_EVENTS == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      walk_event (w, &ev);
    }
  return TRUE;
}

/* Which threads hold a marked frame: only those are walked. */
static guint8 *
marked_threads (const AfgTree *tree, const guint8 *marks)
{
  guint8 *threads = g_new0 (guint8, afg_tree_get_n_threads (tree) + 1);

  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    if (marks[i] && afg_tree_get_node (tree, i)->thread != AFG_THREAD_NONE)
      threads[afg_tree_get_node (tree, i)->thread] = 1;
  return threads;
}

static const AfgEventThread *
store_thread (const AfgEventStore *store, gint64 global_tid)
{
  for (guint i = 0; i < afg_event_store_get_n_threads (store); i++)
    if (afg_event_store_get_thread (store, i)->global_tid == global_tid)
      return afg_event_store_get_thread (store, i);
  return NULL;
}

gboolean
afg_call_durations_walk (AfgTree *tree, const guint8 *threads, AfgCallFunc func, gpointer data,
                         GCancellable *cancellable)
{
  const AfgEventStore *store;
  g_autofree Walk *w = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (tree != NULL && func != NULL, FALSE);

  w = g_new0 (Walk, 1);
  *w = (Walk) { tree, afg_tree_get_document (tree), (afg_tree_get_flags (tree) & AFG_TREE_MERGE_ADDRESSES) != 0,
                func, data };
  store = afg_document_get_events (w->document);
  index_children (w);
  for (guint t = 0; ok && t < afg_tree_get_n_threads (tree); t++)
    {
      const AfgThread *thread = afg_tree_get_thread (tree, t);
      const AfgEventThread *events = threads == NULL || threads[t] ? store_thread (store, thread->global_tid) : NULL;

      ok = events == NULL || walk_thread (w, events, thread->node, cancellable);
    }
  afg_int_map_clear (&w->children);
  return ok;
}

typedef struct {
  const guint8 *marks;
  GArray       *out;
} Collect;

static void
collect_marked (guint32 node, gint64 ns, guint depth, gpointer data)
{
  Collect *c = data;

  if (c->marks[node])
    g_array_append_val (c->out, ns);
}

/* The same tree, built again with its durations and transformed again:
 * the same nodes, and its calls. */
static AfgTree *
with_calls (AfgTree *tree, GCancellable *cancellable)
{
  g_autoptr(AfgTree) built = afg_tree_build (afg_tree_get_document (tree), afg_tree_get_scope (tree),
                                             afg_tree_get_flags (tree) | AFG_TREE_DURATIONS, cancellable, NULL);

  if (built == NULL)
    return NULL;
  return afg_tree_transform (built, afg_tree_get_transforms (tree), cancellable, NULL);
}

GArray *
afg_call_durations_collect (AfgTree *tree, const guint8 *marks, GCancellable *cancellable)
{
  g_autofree guint8 *threads = NULL;
  Collect c = { marks, NULL };

  g_return_val_if_fail (tree != NULL && marks != NULL, NULL);

  c.out = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* A transformed tree's calls are no longer where the rows nest: they
   * come with its durations, and a tree without them is made again with. */
  if (afg_tree_get_transforms (tree) != NULL)
    {
      g_autoptr(AfgTree) again = _afg_tree_get_calls (tree) != NULL ? afg_tree_ref (tree) : with_calls (tree, cancellable);

      if (again == NULL)
        g_clear_pointer (&c.out, g_array_unref);
      else
        afg_call_table_collect (_afg_tree_get_calls (again), marks, c.out);
      return c.out;
    }
  threads = marked_threads (tree, marks);
  if (!afg_call_durations_walk (tree, threads, collect_marked, &c, cancellable))
    g_clear_pointer (&c.out, g_array_unref);
  return c.out;
}
