/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* How a thread's rows nest, as the tree builder makes the tree: taken by
 * start, a row goes under the innermost open row that outlasts it, and a
 * row past AFG_MAX_DEPTH frames is not opened. The tree builder, the
 * calls' durations and the scopes' totals walk the rows this one way.
 * Inline: it runs once per row of the export. */
typedef struct {
  gint64  end;
  guint32 node;
  guint32 last_child;  /* the builder's: the child last entered from here */
} AfgNestFrame;

typedef struct {
  AfgNestFrame frames[AFG_MAX_DEPTH + 1];  /* [0]: the thread, never closed */
  guint        depth;                      /* of the innermost open row */
} AfgNesting;

static inline void
afg_nesting_start (AfgNesting *self, guint32 thread_node)
{
  self->depth = 0;
  self->frames[0] = (AfgNestFrame) { G_MAXINT64, thread_node, AFG_NODE_NONE };
}

/* Closes the open rows that a row from @start to @end outlasts; returns
 * how many of them it began inside (partial overlaps). */
static inline guint
afg_nesting_close (AfgNesting *self, gint64 start, gint64 end)
{
  guint partial = 0;

  while (self->depth > 0 && self->frames[self->depth].end < end)
    partial += start < self->frames[self->depth--].end;
  return partial;
}

static inline gboolean
afg_nesting_is_full (const AfgNesting *self)
{
  return self->depth >= AFG_MAX_DEPTH;
}

/* The innermost open row (the thread when none is open). */
static inline AfgNestFrame *
afg_nesting_top (AfgNesting *self)
{
  return &self->frames[self->depth];
}

/* Opens a row as @node; not when afg_nesting_is_full(). */
static inline void
afg_nesting_open (AfgNesting *self, gint64 end, guint32 node)
{
  self->frames[++self->depth] = (AfgNestFrame) { end, node, AFG_NODE_NONE };
}

G_END_DECLS
