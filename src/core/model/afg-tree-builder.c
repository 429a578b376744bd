/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include <string.h>

#include "afg-math.h"
#include "afg-tree-builder.h"

typedef struct {
  guint32 name;
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 depth;
  guint32 thread;
  guint32 first_called;  /* the child entered first, last time */
  guint32 successor;     /* the sibling entered after this one, last time */
  guint64 calls;
  gint64  total_ns;
} BuildNode;

typedef struct {
  gint64  end;
  guint32 node;
  guint32 last_child;    /* the child most recently entered from this frame */
} Frame;

#define CANCEL_CHECK_EVENTS 65536

struct _AfgTreeBuilder {
  AfgProfile   *profile;
  GCancellable *cancellable;
  GArray     *nodes;       /* BuildNode */
  GArray     *threads;     /* AfgThread, root = build node index */
  AfgIntMap   children;    /* parent << 32 | name -> node */
  Frame       stack[AFG_MAX_DEPTH + 1];
  guint       sp;
};

AfgTreeBuilder *
afg_tree_builder_new (AfgProfile *profile, GCancellable *cancellable)
{
  AfgTreeBuilder *self = g_new0 (AfgTreeBuilder, 1);

  self->profile = profile;
  self->cancellable = cancellable;
  self->nodes = g_array_sized_new (FALSE, FALSE, sizeof (BuildNode), 4096);
  self->threads = g_array_new (FALSE, FALSE, sizeof (AfgThread));
  afg_int_map_init (&self->children, 4096);
  return self;
}

void
afg_tree_builder_free (AfgTreeBuilder *self)
{
  g_array_unref (self->nodes);
  g_array_unref (self->threads);
  afg_int_map_clear (&self->children);
  g_free (self);
}

static inline BuildNode *
node_at (AfgTreeBuilder *self, guint32 index)
{
  return &g_array_index (self->nodes, BuildNode, index);
}

static guint32
append_node (AfgTreeBuilder *self, guint32 parent, guint32 name, guint32 depth, guint32 thread)
{
  BuildNode node = { name, parent, AFG_NODE_NONE, AFG_NODE_NONE, depth, thread,
                     AFG_NODE_NONE, AFG_NODE_NONE, 0, 0 };
  guint32 index = self->nodes->len;

  if (parent != AFG_NODE_NONE)
    {
      node.next_sibling = node_at (self, parent)->first_child;
      node_at (self, parent)->first_child = index;
    }
  g_array_append_val (self->nodes, node);
  return index;
}

/* Training loops replay the same call sequence every step: the child that
 * followed the previous one last time is nearly always the one wanted, so
 * the map is only consulted on a new path. */
static guint32
predicted_child (AfgTreeBuilder *self, const Frame *frame, guint32 name)
{
  guint32 guess;

  if (frame->last_child == AFG_NODE_NONE)
    guess = node_at (self, frame->node)->first_called;
  else if (node_at (self, frame->last_child)->name == name)
    return frame->last_child;
  else
    guess = node_at (self, frame->last_child)->successor;
  return guess != AFG_NODE_NONE && node_at (self, guess)->name == name ? guess : AFG_NODE_NONE;
}

static guint32
child_of (AfgTreeBuilder *self, Frame *frame, guint32 name)
{
  guint64 key = (guint64) frame->node << 32 | name;
  guint32 child = predicted_child (self, frame, name);

  if (child == AFG_NODE_NONE && !afg_int_map_lookup (&self->children, key, &child))
    {
      child = append_node (self, frame->node, name, self->sp + 1, node_at (self, frame->node)->thread);
      afg_int_map_insert (&self->children, key, child);
    }
  if (frame->last_child == AFG_NODE_NONE)
    node_at (self, frame->node)->first_called = child;
  else if (frame->last_child != child)
    node_at (self, frame->last_child)->successor = child;
  frame->last_child = child;
  return child;
}

static void
add_event (AfgTreeBuilder *self, const AfgEvent *ev)
{
  AfgStats *stats = &self->profile->stats;
  BuildNode *node;
  guint32 child;

  /* Each frame the event started inside but outlives is one partial overlap. */
  while (self->sp > 0 && self->stack[self->sp].end < ev->end)
    stats->partial_overlaps += ev->start < self->stack[self->sp--].end;
  if (self->sp >= AFG_MAX_DEPTH)
    {
      stats->depth_truncated++;
      return;
    }
  child = child_of (self, &self->stack[self->sp], ev->name);
  node = node_at (self, child);
  node->calls++;
  node->total_ns = afg_sat_add (node->total_ns, ev->end - ev->start);
  stats->used++;
  self->stack[++self->sp] = (Frame) { ev->end, child, AFG_NODE_NONE };
}

gboolean
afg_tree_builder_add_thread (AfgTreeBuilder *self, gint64 global_tid, AfgChunk *chunks)
{
  guint n = 0;
  AfgThread thread = { global_tid, (guint32) ((guint64) global_tid >> 32), (guint32) global_tid, NULL, 0 };
  g_autofree char *label = g_strdup_printf ("%u/%u", thread.pid, thread.tid);
  AfgEventMerge merge;
  const AfgEvent *ev;

  thread.root = append_node (self, AFG_NODE_NONE,
                             afg_string_table_add (&self->profile->strings, label),
                             0, self->threads->len);
  thread.label = afg_string_table_get (&self->profile->strings, node_at (self, thread.root)->name);
  g_array_append_val (self->threads, thread);

  self->sp = 0;
  self->stack[0] = (Frame) { G_MAXINT64, thread.root, AFG_NODE_NONE };
  afg_event_merge_init (&merge, chunks);
  while ((ev = afg_event_merge_next (&merge)) != NULL)
    {
      add_event (self, ev);
      if (++n % CANCEL_CHECK_EVENTS == 0 && g_cancellable_is_cancelled (self->cancellable))
        break;
    }
  afg_event_merge_clear (&merge);
  return !g_cancellable_is_cancelled (self->cancellable);
}

/* Children are created after their parent, so one backward pass sums them. */
static gint64 *
sum_children (AfgTreeBuilder *self)
{
  gint64 *sums = g_new0 (gint64, MAX (self->nodes->len, 1));

  for (guint32 i = self->nodes->len; i-- > 0;)
    {
      BuildNode *node = node_at (self, i);

      if (node->parent == AFG_NODE_NONE)
        {
          node->total_ns = sums[i];
          continue;
        }
      sums[node->parent] = afg_sat_add (sums[node->parent], node->total_ns);
      if (node->depth == 1)
        node_at (self, node->parent)->calls += node->calls;
    }
  return sums;
}

static int
compare_by_name (gconstpointer a, gconstpointer b, gpointer strings)
{
  const BuildNode *na = *(BuildNode * const *) a;
  const BuildNode *nb = *(BuildNode * const *) b;

  return strcmp (afg_string_table_get (strings, na->name),
                 afg_string_table_get (strings, nb->name));
}

/* Breadth-first, children sorted by name: the order of AfgNode. */
static guint32 *
layout_order (AfgTreeBuilder *self)
{
  guint32 n = self->nodes->len, len = 0;
  guint32 *order = g_new (guint32, MAX (n, 1));
  g_autoptr(GPtrArray) kids = g_ptr_array_new ();

  for (guint i = 0; i < self->threads->len; i++)
    order[len++] = g_array_index (self->threads, AfgThread, i).root;
  for (guint32 q = 0; q < len; q++)
    {
      g_ptr_array_set_size (kids, 0);
      for (guint32 c = node_at (self, order[q])->first_child; c != AFG_NODE_NONE; c = node_at (self, c)->next_sibling)
        g_ptr_array_add (kids, node_at (self, c));
      g_ptr_array_sort_with_data (kids, compare_by_name, &self->profile->strings);
      for (guint i = 0; i < kids->len; i++)
        order[len++] = (BuildNode *) g_ptr_array_index (kids, i) - node_at (self, 0);
    }
  return order;
}

static void
emit_nodes (AfgTreeBuilder *self, const guint32 *order, const gint64 *child_sums)
{
  AfgProfile *profile = self->profile;
  guint32 n = self->nodes->len;
  g_autofree guint32 *new_index = g_new (guint32, MAX (n, 1));
  guint32 next_child = self->threads->len;

  for (guint32 i = 0; i < n; i++)
    new_index[order[i]] = i;
  profile->nodes = g_new0 (AfgNode, MAX (n, 1));
  profile->n_nodes = n;
  for (guint32 i = 0; i < n; i++)
    {
      const BuildNode *b = node_at (self, order[i]);
      AfgNode *out = &profile->nodes[i];
      guint32 n_children = 0;

      for (guint32 c = b->first_child; c != AFG_NODE_NONE; c = node_at (self, c)->next_sibling)
        n_children++;
      *out = (AfgNode) {
        .name = b->name,
        .parent = b->parent == AFG_NODE_NONE ? AFG_NODE_NONE : new_index[b->parent],
        .first_child = n_children ? next_child : AFG_NODE_NONE,
        .n_children = n_children,
        .depth = b->depth,
        .thread = b->thread,
        .calls = b->calls,
        .total_ns = b->total_ns,
        .self_ns = b->parent == AFG_NODE_NONE ? 0 : MAX (0, b->total_ns - child_sums[order[i]]),
      };
      next_child += n_children;
      if (b->parent != AFG_NODE_NONE)
        afg_string_table_get_category (&profile->strings, b->name);
    }
}

void
afg_tree_builder_finish (AfgTreeBuilder *self)
{
  AfgProfile *profile = self->profile;
  g_autofree gint64 *sums = sum_children (self);
  g_autofree guint32 *order = layout_order (self);

  emit_nodes (self, order, sums);
  profile->n_threads = self->threads->len;
  profile->threads = g_new0 (AfgThread, MAX (profile->n_threads, 1));
  for (guint i = 0; i < profile->n_threads; i++)
    {
      profile->threads[i] = g_array_index (self->threads, AfgThread, i);
      profile->threads[i].root = i;
    }
}
