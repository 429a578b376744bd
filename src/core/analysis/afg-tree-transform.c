/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include "afg-call-table.h"
#include "afg-error.h"
#include "afg-int-map.h"
#include "afg-math.h"
#include "afg-tree-private.h"
#include "afg-tree-transform.h"

typedef enum {
  FATE_KEEP,   /* its values land in its place in the new tree */
  FATE_FOLD,   /* removed; its children go where kids_into says */
  FATE_GONE,   /* removed with its subtree */
} Fate;

/* How a column is carried through a transform. Self columns and the
 * durations are not carried: they are made again from the others. */
typedef enum {
  KIND_CALLS,   /* added up where frames merge, never taken */
  KIND_TOTAL,   /* added up, and taken where a transform takes time */
  KIND_BELOW,   /* a frame's own count, carried as its subtree's sum */
} Kind;

typedef struct {
  AfgColumn column;
  Kind      kind;
  gint64   *source;   /* by source node, in the carried form */
  gint64   *taken;    /* by source node, NULL when nothing is taken */
} Carried;

typedef struct {
  guint32 name;
  guint32 parent;
  guint32 depth;
  guint32 thread;   /* the source's thread index */
} Made;

/* Focus transforms: the frame is in a focused subtree; focus-subtree:
 * it lies on the path; indirect recursion: an F frame is at or above it. */
#define STATE_IN  (1 << 0)
#define STATE_ON  (1 << 1)

typedef struct {
  const AfgTree      *src;
  AfgTransformOp      op;
  AfgFrameMatcher    *matcher;
  char              **path;
  guint               path_len;
  guint8             *match;      /* by source node: an F frame */
  guint8             *fate;
  guint8             *state;
  guint8             *take;       /* gives its totals back to its ancestors */
  guint32            *place;      /* the new node of its values */
  guint32            *kids_into;  /* the new node its children go under */
  guint32            *anchor;     /* indirect recursion: the outermost F's new node */
  GArray             *made;       /* Made, in order of creation: 0 the root, then the threads */
  AfgIntMap           children;   /* new parent << 32 | name -> new node */
  Carried             carried[AFG_N_COLUMNS];
  guint               n_carried;
  GArray             *values;     /* gint64, n_carried per new node */
} Apply;

static inline gboolean
takes_time (AfgTransformOp op)
{
  return op == AFG_TRANSFORM_DROP_FUNCTION || op == AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION;
}

static inline gboolean
focuses (AfgTransformOp op)
{
  return op == AFG_TRANSFORM_FOCUS_FUNCTION || op == AFG_TRANSFORM_FOCUS_SUBTREE;
}

static Kind
column_kind (AfgColumn c)
{
  const AfgColumnInfo *info = afg_column_get_info (c);

  if (c == AFG_COLUMN_CALLS)
    return KIND_CALLS;
  return info->self != c ? KIND_TOTAL : KIND_BELOW;
}

static gboolean
is_carried (const AfgTree *tree, AfgColumn c)
{
  const AfgColumnInfo *info = afg_column_get_info (c);

  return afg_tree_has_column (tree, c) && !(info->flags & (AFG_COLUMN_FLAG_SELF | AFG_COLUMN_FLAG_DURATION));
}

/* A frame's own counts summed over its subtree: children follow their
 * parent in the node array, so one backward sweep. */
static gint64 *
sum_below (const AfgTree *tree, const gint64 *own)
{
  gint64 *below = g_memdup2 (own, sizeof (gint64) * tree->n_nodes);

  for (guint32 n = tree->n_nodes; n-- > tree->first_frame;)
    below[tree->nodes[n].parent] = afg_sat_add (below[tree->nodes[n].parent], below[n]);
  return below;
}

static void
init_carried (Apply *a)
{
  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    {
      Carried *k = &a->carried[a->n_carried];

      if (!is_carried (a->src, c))
        continue;
      k->column = c;
      k->kind = column_kind (c);
      k->source = k->kind == KIND_BELOW ? sum_below (a->src, a->src->columns[c])
                                        : g_memdup2 (a->src->columns[c], sizeof (gint64) * a->src->n_nodes);
      a->n_carried++;
    }
}

static void
mark_matches (Apply *a)
{
  AfgDocument *doc = a->src->document;
  g_autofree guint8 *cache = g_new0 (guint8, MAX (afg_document_get_n_strings (doc), 1));

  if (a->matcher == NULL)
    return;
  for (guint32 n = a->src->first_frame; n < a->src->n_nodes; n++)
    {
      guint32 name = a->src->nodes[n].name;

      if (cache[name] == 0)
        cache[name] = afg_frame_matcher_matches (a->matcher, afg_document_get_string (doc, name)) ? 2 : 1;
      a->match[n] = cache[name] == 2;
    }
}

/* Frames merge by path; the root's children are the threads, never merged. */
static guint32
make_node (Apply *a, guint32 parent, guint32 name, guint32 thread)
{
  guint64 key = (guint64) parent << 32 | name;
  gboolean frame = parent != AFG_NODE_NONE && parent != AFG_TREE_ROOT;
  guint32 node;
  Made made;

  if (frame && afg_int_map_lookup (&a->children, key, &node))
    return node;
  node = a->made->len;
  made = (Made) { name, parent, parent == AFG_NODE_NONE ? 0 : g_array_index (a->made, Made, parent).depth + 1,
                  thread };
  g_array_append_val (a->made, made);
  g_array_set_size (a->values, a->values->len + a->n_carried);
  if (frame)
    afg_int_map_insert (&a->children, key, node);
  return node;
}

static void
keep (Apply *a, guint32 s, guint32 under)
{
  a->fate[s] = FATE_KEEP;
  a->place[s] = make_node (a, under, a->src->nodes[s].name, a->src->nodes[s].thread);
  a->kids_into[s] = a->place[s];
}

static void
fold (Apply *a, guint32 s, guint32 kids_into)
{
  a->fate[s] = FATE_FOLD;
  a->kids_into[s] = kids_into;
}

/* Whether frame @s, of depth 2 + @d, continues the path from the top. */
static gboolean
on_path (Apply *a, guint32 s, guint32 p, guint d)
{
  if (d >= a->path_len || (d > 0 && !(a->state[p] & STATE_ON)))
    return FALSE;
  return strcmp (afg_document_get_string (a->src->document, a->src->nodes[s].name), a->path[d]) == 0;
}

static void
decide_focus (Apply *a, guint32 s, guint32 p, guint32 thread_node)
{
  gboolean root;

  if (a->state[p] & STATE_IN)
    {
      a->state[s] = STATE_IN;
      keep (a, s, a->kids_into[p]);
      return;
    }
  if (a->op == AFG_TRANSFORM_FOCUS_FUNCTION)
    root = a->match[s];
  else
    {
      guint d = a->src->nodes[s].depth - 2;

      a->state[s] = on_path (a, s, p, d) ? STATE_ON : 0;
      root = a->state[s] && d == a->path_len - 1;
    }
  if (!root)
    {
      fold (a, s, AFG_NODE_NONE);
      return;
    }
  a->state[s] = STATE_IN;
  keep (a, s, thread_node);
}

static void
decide_indirect (Apply *a, guint32 s, guint32 p)
{
  gboolean below_f = (a->state[p] & STATE_IN) != 0;

  if (a->match[s] && below_f)
    {
      a->take[s] = TRUE;
      a->state[s] = STATE_IN;
      a->anchor[s] = a->anchor[p];
      fold (a, s, a->anchor[p]);
      return;
    }
  keep (a, s, a->kids_into[p]);
  a->state[s] = below_f || a->match[s] ? STATE_IN : 0;
  a->anchor[s] = a->match[s] && !below_f ? a->place[s] : a->anchor[p];
}

static void
decide_frame (Apply *a, guint32 s)
{
  const AfgNode *node = &a->src->nodes[s];
  guint32 p = node->parent;

  switch (a->op)
    {
    case AFG_TRANSFORM_FOCUS_FUNCTION:
    case AFG_TRANSFORM_FOCUS_SUBTREE:
      decide_focus (a, s, p, a->place[a->src->threads[node->thread].node]);
      break;
    case AFG_TRANSFORM_MERGE_FUNCTION:
      if (a->match[s])
        fold (a, s, a->kids_into[p]);
      else
        keep (a, s, a->kids_into[p]);
      break;
    case AFG_TRANSFORM_DROP_FUNCTION:
      if (a->fate[p] == FATE_GONE || a->match[s])
        {
          a->fate[s] = FATE_GONE;
          a->take[s] = a->fate[p] != FATE_GONE;
        }
      else
        keep (a, s, a->kids_into[p]);
      break;
    case AFG_TRANSFORM_COLLAPSE_RECURSION:
      if (a->match[s] && p >= a->src->first_frame && a->src->nodes[p].name == node->name)
        fold (a, s, a->kids_into[p]);
      else
        keep (a, s, a->kids_into[p]);
      break;
    case AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION:
      decide_indirect (a, s, p);
      break;
    case AFG_N_TRANSFORM_OPS:
    default:
      g_assert_not_reached ();
    }
}

/* The root, the threads (new nodes 0 .. n_threads, as in the source),
 * then every frame parent first. */
static void
decide (Apply *a)
{
  const AfgTree *src = a->src;

  a->place[AFG_TREE_ROOT] = a->kids_into[AFG_TREE_ROOT] = make_node (a, AFG_NODE_NONE, src->nodes[0].name, AFG_THREAD_NONE);
  a->anchor[AFG_TREE_ROOT] = AFG_NODE_NONE;
  for (guint32 s = 1; s < src->first_frame; s++)
    {
      keep (a, s, AFG_TREE_ROOT);
      a->anchor[s] = AFG_NODE_NONE;
    }
  for (guint32 s = src->first_frame; s < src->n_nodes; s++)
    decide_frame (a, s);
}

/* What each node gives back: the totals of the frames below it that are
 * taken, up to a frame that stops them (an F frame for indirect
 * recursion, whose own total keeps them). */
static void
sum_taken (Apply *a)
{
  const AfgTree *src = a->src;
  gboolean stops = a->op == AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION;

  for (guint k = 0; k < a->n_carried; k++)
    {
      Carried *c = &a->carried[k];

      if (c->kind == KIND_CALLS)
        continue;
      c->taken = g_new0 (gint64, src->n_nodes);
      for (guint32 n = src->n_nodes; n-- > src->first_frame;)
        {
          gint64 back;

          /* Its children are done: an F frame that stops them keeps its total. */
          if (stops && a->match[n])
            c->taken[n] = 0;
          back = a->take[n] ? c->source[n] : c->taken[n];
          c->taken[src->nodes[n].parent] = afg_sat_add (c->taken[src->nodes[n].parent], back);
        }
    }
}

static inline gint64
adjusted (const Carried *c, guint32 s)
{
  return c->taken == NULL ? c->source[s] : MAX (0, c->source[s] - c->taken[s]);
}

static inline gint64 *
values_of (Apply *a, guint32 made)
{
  return &g_array_index (a->values, gint64, (gsize) made * a->n_carried);
}

static void
add_frames (Apply *a)
{
  for (guint32 s = a->src->first_frame; s < a->src->n_nodes; s++)
    {
      gint64 *v;

      if (a->fate[s] != FATE_KEEP)
        continue;
      v = values_of (a, a->place[s]);
      for (guint k = 0; k < a->n_carried; k++)
        v[k] = afg_sat_add (v[k], adjusted (&a->carried[k], s));
    }
}

static void
apply_init (Apply *a, AfgTree *src, const AfgTransform *t)
{
  guint32 n = src->n_nodes;

  memset (a, 0, sizeof *a);
  a->src = src;
  a->op = t->op;
  if (t->op == AFG_TRANSFORM_FOCUS_SUBTREE)
    {
      a->path = afg_transform_path_split (t->arg, NULL);
      a->path_len = g_strv_length (a->path);
    }
  else
    a->matcher = afg_frame_matcher_new (t->arg, NULL);
  a->match = g_new0 (guint8, n);
  a->fate = g_new0 (guint8, n);
  a->state = g_new0 (guint8, n);
  a->take = g_new0 (guint8, n);
  a->place = g_new (guint32, n);
  a->kids_into = g_new (guint32, n);
  a->anchor = g_new (guint32, n);
  memset (a->place, 0xff, sizeof (guint32) * n);
  a->made = g_array_new (FALSE, FALSE, sizeof (Made));
  a->values = g_array_new (FALSE, TRUE, sizeof (gint64));
  afg_int_map_init (&a->children, n);
  init_carried (a);
  mark_matches (a);
}

static void
apply_clear (Apply *a)
{
  afg_frame_matcher_free (a->matcher);
  g_strfreev (a->path);
  g_free (a->match);
  g_free (a->fate);
  g_free (a->state);
  g_free (a->take);
  g_free (a->place);
  g_free (a->kids_into);
  g_free (a->anchor);
  g_array_unref (a->made);
  g_array_unref (a->values);
  afg_int_map_clear (&a->children);
  for (guint k = 0; k < a->n_carried; k++)
    {
      g_free (a->carried[k].source);
      g_free (a->carried[k].taken);
    }
}


/* The new tree's nodes in the order of AfgNode: the root, the threads
 * that keep something (in the source's order), then breadth-first with
 * each node's children by name. */
typedef struct {
  guint32 *order;       /* new node -> made node */
  guint32 *new_index;   /* made node -> new node, AFG_NODE_NONE when left out */
  guint32  n;
  guint32  n_threads;
  guint32 *kids_start;  /* made children lists by parent */
  guint32 *kids;
} Layout;

typedef struct {
  const AfgTree *src;
  const Made    *made;
} SortData;

static int
compare_made (gconstpointer x, gconstpointer y, gpointer data)
{
  const SortData *d = data;

  return strcmp (afg_document_get_string (d->src->document, d->made[*(const guint32 *) x].name),
                 afg_document_get_string (d->src->document, d->made[*(const guint32 *) y].name));
}

static void
list_children (Apply *a, Layout *l)
{
  guint32 n = a->made->len;
  const Made *made = (const Made *) a->made->data;
  g_autofree guint32 *fill = NULL;

  l->kids_start = g_new0 (guint32, n + 1);
  l->kids = g_new (guint32, MAX (n, 1));
  for (guint32 i = 1; i < n; i++)
    l->kids_start[made[i].parent + 1]++;
  for (guint32 i = 0; i < n; i++)
    l->kids_start[i + 1] += l->kids_start[i];
  fill = g_memdup2 (l->kids_start, sizeof (guint32) * (n + 1));
  for (guint32 i = 1; i < n; i++)
    l->kids[fill[made[i].parent]++] = i;
}

static inline guint32
n_kids (const Layout *l, guint32 made)
{
  return l->kids_start[made + 1] - l->kids_start[made];
}

/* A thread's values: calls and (for a focus) totals from its new top
 * frames, otherwise its own totals less what was taken. */
static void
thread_values (Apply *a, const Layout *l, guint32 t)
{
  gint64 *v = values_of (a, t);
  guint32 s = a->src->threads[t - 1].node;

  for (guint k = 0; k < a->n_carried; k++)
    {
      const Carried *c = &a->carried[k];

      v[k] = 0;
      if (c->kind == KIND_BELOW)
        continue;
      if (c->kind == KIND_TOTAL && !focuses (a->op))
        {
          v[k] = adjusted (c, s);
          continue;
        }
      for (guint32 i = l->kids_start[t]; i < l->kids_start[t + 1]; i++)
        v[k] = afg_sat_add (v[k], values_of (a, l->kids[i])[k]);
    }
}

static gboolean
thread_is_kept (Apply *a, const Layout *l, guint32 t)
{
  if (n_kids (l, t) > 0)
    return TRUE;
  for (guint k = 0; k < a->n_carried; k++)
    if (a->carried[k].column == AFG_COLUMN_TOTAL_NS)
      return values_of (a, t)[k] > 0;
  return FALSE;
}

static void
lay_out (Apply *a, Layout *l)
{
  guint32 n = a->made->len, n_threads = a->src->n_threads;
  SortData data = { a->src, (const Made *) a->made->data };
  gint64 *root = values_of (a, AFG_TREE_ROOT);

  list_children (a, l);
  l->order = g_new (guint32, MAX (n, 1));
  l->new_index = g_new (guint32, MAX (n, 1));
  memset (l->new_index, 0xff, sizeof (guint32) * MAX (n, 1));
  l->order[l->n++] = AFG_TREE_ROOT;
  memset (root, 0, sizeof (gint64) * a->n_carried);
  for (guint32 t = 1; t <= n_threads; t++)
    {
      thread_values (a, l, t);
      if (!thread_is_kept (a, l, t))
        continue;
      l->order[l->n++] = t;
      for (guint k = 0; k < a->n_carried; k++)
        if (a->carried[k].kind != KIND_BELOW)
          root[k] = afg_sat_add (root[k], values_of (a, t)[k]);
    }
  l->n_threads = l->n - 1;
  for (guint32 q = 1; q < l->n; q++)
    {
      guint32 p = l->order[q], count = n_kids (l, p);

      g_qsort_with_data (l->kids + l->kids_start[p], count, sizeof (guint32), compare_made, &data);
      memcpy (l->order + l->n, l->kids + l->kids_start[p], sizeof (guint32) * count);
      l->n += count;
    }
  for (guint32 i = 0; i < l->n; i++)
    l->new_index[l->order[i]] = i;
}

static void
layout_clear (Layout *l)
{
  g_free (l->order);
  g_free (l->new_index);
  g_free (l->kids_start);
  g_free (l->kids);
}

static guint32
present_columns (const AfgTree *tree)
{
  guint32 bits = 0;

  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    if (afg_tree_has_column (tree, c))
      bits |= 1u << c;
  return bits;
}

/* Self values after the transform: max(0, total − the children's
 * totals) on frames, 0 on the root and the threads; the same for a
 * frame's own counts from their subtree sums. */
static void
derive_own (AfgTree *tree, gint64 *carried, AfgColumn own)
{
  g_autofree gint64 *below = g_new0 (gint64, tree->n_nodes);

  for (guint32 n = tree->n_nodes; n-- > tree->first_frame;)
    below[tree->nodes[n].parent] = afg_sat_add (below[tree->nodes[n].parent], carried[n]);
  for (guint32 n = 0; n < tree->n_nodes; n++)
    tree->columns[own][n] = n < tree->first_frame ? 0 : MAX (0, carried[n] - below[n]);
}

static void
fill_columns (Apply *a, const Layout *l, AfgTree *tree)
{
  for (guint k = 0; k < a->n_carried; k++)
    {
      const Carried *c = &a->carried[k];
      gint64 *column = c->kind == KIND_BELOW ? g_new (gint64, tree->n_nodes) : tree->columns[c->column];

      for (guint32 i = 0; i < tree->n_nodes; i++)
        column[i] = values_of (a, l->order[i])[k];
      if (c->kind == KIND_TOTAL && afg_column_get_info (c->column)->self != c->column
          && afg_tree_has_column (tree, afg_column_get_info (c->column)->self))
        derive_own (tree, column, afg_column_get_info (c->column)->self);
      if (c->kind == KIND_BELOW)
        {
          derive_own (tree, column, c->column);
          g_free (column);
        }
    }
}

static void
fill_nodes (Apply *a, const Layout *l, AfgTree *tree)
{
  const Made *made = (const Made *) a->made->data;
  g_autofree guint32 *thread_index = g_new (guint32, a->src->n_threads + 1);
  guint32 next_child = 1 + l->n_threads;

  for (guint32 i = 1; i <= l->n_threads; i++)
    {
      thread_index[made[l->order[i]].thread] = i - 1;
      tree->threads[i - 1] = a->src->threads[made[l->order[i]].thread];
      tree->threads[i - 1].node = i;
    }
  for (guint32 i = 0; i < l->n; i++)
    {
      const Made *m = &made[l->order[i]];
      guint32 count = i == 0 ? l->n_threads : n_kids (l, l->order[i]);

      tree->nodes[i] = (AfgNode) {
        .name = m->name,
        .parent = m->parent == AFG_NODE_NONE ? AFG_NODE_NONE : l->new_index[m->parent],
        .first_child = count > 0 ? (i == 0 ? 1 : next_child) : AFG_NODE_NONE,
        .n_children = count,
        .depth = m->depth,
        .thread = m->thread == AFG_THREAD_NONE ? AFG_THREAD_NONE : thread_index[m->thread],
      };
      if (i > 0)
        next_child += count;
    }
}

/* Where a source node's own device work lands: its place when it stays,
 * where its children go when it is removed from its place (its own time
 * goes there too: totals above it are kept), nowhere when it is gone.
 * Leaves are a frame's: a removed top frame's own time stays in its
 * thread's totals, but its leaves go nowhere, as in the JSON and the
 * page, whose threads have none (and a focus, which leaves a thread no
 * own time, cannot meet leaves an earlier merge put there). */
static guint32
kernel_home (const Apply *a, guint32 s)
{
  guint32 home = AFG_NODE_NONE;

  if (a->fate[s] == FATE_KEEP)
    home = a->place[s];
  else if (a->fate[s] == FATE_FOLD)
    home = a->kids_into[s];
  return home != AFG_NODE_NONE && home > a->src->n_threads ? home : AFG_NODE_NONE;
}

/* The kernel leaves follow the frames' own time; leaves of one name and
 * kind that meet on a node (frames merged by path) add up. */
static void
carry_kernels (const Apply *a, const Layout *l, AfgTree *tree)
{
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (AfgNodeKernel));
  AfgIntMap at;

  if (a->src->kernel_first == NULL)
    return;
  afg_int_map_init (&at, 16);
  for (guint32 s = 0; s < a->src->n_nodes; s++)
    {
      guint32 home = a->src->kernel_first[s] == a->src->kernel_first[s + 1] ? AFG_NODE_NONE : kernel_home (a, s);

      for (guint32 k = a->src->kernel_first[s]; home != AFG_NODE_NONE && k < a->src->kernel_first[s + 1]; k++)
        afg_node_kernels_add (leaves, &at, l->new_index[home], &a->src->kernels[k], a->src->kernels[k].name);
    }
  afg_int_map_clear (&at);
  afg_tree_set_kernels (tree, (AfgNodeKernel *) (void *) leaves->data, leaves->len, NULL);
}

static AfgTree *
emit (Apply *a, Layout *l)
{
  AfgTree *tree = afg_tree_new (a->src->document, &a->src->scope, a->src->flags);

  lay_out (a, l);
  tree->stats = a->src->stats;
  tree->n_nodes = l->n;
  tree->nodes = g_new0 (AfgNode, l->n);
  tree->n_threads = l->n_threads;
  tree->threads = g_new0 (AfgThread, MAX (l->n_threads, 1));
  tree->first_frame = 1 + l->n_threads;
  afg_tree_alloc_columns (tree, present_columns (a->src));
  fill_nodes (a, l, tree);
  fill_columns (a, l, tree);
  carry_kernels (a, l, tree);
  return tree;
}

/* What one transform does to the calls: replayed on the call table once
 * it is made (afg-call-table.h), which may be after the nodes are. */
typedef struct {
  guint8  *take;   /* by source node; NULL when no time is taken */
  guint8  *stop;   /* by source node; NULL: taken up to the top */
  guint32 *map;    /* source node -> new node, AFG_NODE_NONE: gone */
} CallMove;

static void
call_move_clear (CallMove *move)
{
  g_free (move->take);
  g_free (move->stop);
  g_free (move->map);
}

static void
record_calls (Apply *a, const Layout *l, CallMove *move)
{
  move->map = g_new (guint32, a->src->n_nodes);
  for (guint32 s = 0; s < a->src->n_nodes; s++)
    move->map[s] = a->fate[s] == FATE_KEEP && s >= a->src->first_frame ? l->new_index[a->place[s]] : AFG_NODE_NONE;
  if (takes_time (a->op))
    move->take = g_steal_pointer (&a->take);
  if (a->op == AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION)
    move->stop = g_steal_pointer (&a->match);
}

static void
replay_calls (AfgCallTable *calls, const CallMove *move)
{
  if (move->take != NULL)
    afg_call_table_take (calls, move->take, move->stop);
  /* Indirect recursion moves an inner F's children to the outermost F. */
  if (move->stop != NULL)
    afg_call_table_lift (calls, move->stop, move->map);
  afg_call_table_remap (calls, move->map);
}

static AfgTree *
apply_one (AfgTree *src, const AfgTransform *t, CallMove *move)
{
  Apply a;
  Layout l = { 0 };
  AfgTree *tree;

  apply_init (&a, src, t);
  decide (&a);
  if (takes_time (a.op))
    sum_taken (&a);
  add_frames (&a);
  tree = emit (&a, &l);
  if (move != NULL)
    record_calls (&a, &l, move);
  layout_clear (&l);
  apply_clear (&a);
  return tree;
}

typedef struct {
  AfgTree      *tree;
  GCancellable *cancellable;
} CallsWork;

static gpointer
build_calls (gpointer data)
{
  CallsWork *work = data;

  return afg_call_table_build (work->tree, work->cancellable);
}

/* A built tree's rows are walked again for its calls on a second thread
 * while this one transforms the nodes: the two do not meet until the
 * calls are moved. */
static AfgTree *
transform_nodes (AfgTree *tree, const AfgTransformList *list, CallMove *moves, gboolean *named)
{
  AfgTree *current = afg_tree_ref (tree);

  for (guint i = 0; i < afg_transform_list_get_length (list); i++)
    {
      const AfgTransform *t = afg_transform_list_get (list, i);
      AfgTree *next;

      if (named != NULL)
        named[i] = afg_tree_transform_names_frame (current, t);
      next = apply_one (current, t, moves != NULL ? &moves[i] : NULL);

      afg_tree_unref (current);
      current = next;
    }
  return current;
}

AfgTree *
afg_tree_transform (AfgTree *tree, const AfgTransformList *list, GCancellable *cancellable, GError **error)
{
  return afg_tree_transform_named (tree, list, NULL, cancellable, error);
}

AfgTree *
afg_tree_transform_named (AfgTree *tree, const AfgTransformList *list, gboolean *named, GCancellable *cancellable,
                          GError **error)
{
  guint n = afg_transform_list_get_length (list);
  gboolean durations;
  CallsWork work = { tree, cancellable };
  GThread *walker = NULL;
  g_autofree CallMove *moves = NULL;
  AfgCallTable *calls = NULL;
  AfgTree *current;

  g_return_val_if_fail (tree != NULL && tree->first_frame == 1 + tree->n_threads, NULL);

  if (n == 0)
    return afg_tree_ref (tree);
  durations = afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN);
  if (durations && tree->calls == NULL)
    walker = g_thread_new ("afg-calls", build_calls, &work);
  moves = durations ? g_new0 (CallMove, n) : NULL;
  current = transform_nodes (tree, list, moves, named);
  if (durations)
    calls = walker != NULL ? g_thread_join (walker) : afg_call_table_copy (tree->calls);
  for (guint i = 0; calls != NULL && i < n; i++)
    replay_calls (calls, &moves[i]);
  for (guint i = 0; moves != NULL && i < n; i++)
    call_move_clear (&moves[i]);
  if (durations && calls == NULL)
    {
      afg_tree_unref (current);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  if (calls != NULL)
    afg_call_table_fill_durations (calls, current);
  current->calls = calls;
  current->transforms = afg_transform_list_concat (tree->transforms, list);
  return current;
}

/* Whether frame @node is at @path, its names from its thread's top. */
static gboolean
at_path (const AfgTree *tree, guint32 node, char **path, guint len)
{
  for (guint d = len; d-- > 0; node = tree->nodes[node].parent)
    if (node < tree->first_frame || strcmp (afg_tree_get_node_name (tree, node), path[d]) != 0)
      return FALSE;
  return node < tree->first_frame;
}

static gboolean
has_path (const AfgTree *tree, const char *arg)
{
  g_auto(GStrv) path = afg_transform_path_split (arg, NULL);
  guint len = path != NULL ? g_strv_length (path) : 0;

  for (guint32 n = tree->first_frame; len > 0 && n < tree->n_nodes; n++)
    if (tree->nodes[n].depth == len + 1 && at_path (tree, n, path, len))
      return TRUE;
  return FALSE;
}

gboolean
afg_tree_transform_names_frame (const AfgTree *tree, const AfgTransform *transform)
{
  g_autoptr(AfgFrameMatcher) matcher = NULL;
  g_autofree guint8 *seen = NULL;

  g_return_val_if_fail (tree != NULL && transform != NULL, FALSE);

  if (transform->op == AFG_TRANSFORM_FOCUS_SUBTREE)
    return has_path (tree, transform->arg);
  matcher = afg_frame_matcher_new (transform->arg, NULL);
  if (matcher == NULL)
    return FALSE;
  /* Each name judged once: a regex costs more than a frame. */
  seen = g_new0 (guint8, MAX (afg_document_get_n_strings (tree->document), 1));
  for (guint32 n = tree->first_frame; n < tree->n_nodes; n++)
    {
      guint32 name = tree->nodes[n].name;

      if (seen[name])
        continue;
      seen[name] = TRUE;
      if (afg_frame_matcher_matches (matcher, afg_document_get_string (tree->document, name)))
        return TRUE;
    }
  return FALSE;
}

char *
afg_tree_transform_arg_for_node (const AfgTree *tree, AfgTransformOp op, guint32 node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (tree != NULL && node < tree->n_nodes && node >= tree->first_frame, NULL);

  if (op != AFG_TRANSFORM_FOCUS_SUBTREE)
    return afg_frame_matcher_quote_name (afg_tree_get_node_name (tree, node));
  for (guint32 n = node; n >= tree->first_frame; n = tree->nodes[n].parent)
    g_ptr_array_insert (names, 0, (gpointer) afg_tree_get_node_name (tree, n));
  g_ptr_array_add (names, NULL);
  return afg_transform_path_join ((const char * const *) names->pdata);
}
